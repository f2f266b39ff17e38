import AccountAPI

/// Something that happened to the session, as ``SessionManager/events()`` tells it: what an app
/// logs, counts or answers (a toast for "signed out elsewhere"), where ``SessionManager/State``
/// only says what to show.
public enum SessionEvent: Sendable, Hashable {
    /// A session began: a login, a sign-up or verification that signed in, or a pair handed to
    /// ``SessionManager/begin(with:)``.
    case signedIn(User)
    /// The session ended, and why.
    case signedOut(SignOutReason)
    /// The access token was replaced by a refresh (before it expired, after a 401, or by
    /// ``SessionManager/refresh()``); the stored pair is the new one.
    case tokenRefreshed
    /// The server's copy of the user differed from the one held (a profile change here or on
    /// another device, seen by `me()`, `updateProfile` or a refresh).
    case userUpdated(User)
    /// This app deleted the account (``SessionManager/deleteAccount(proof:)``): forget what the
    /// app keeps of this user. ``signedOut(_:)`` with ``SignOutReason/accountDeleted`` follows.
    case userDeleted(User)
    /// A password reset was completed (``SessionManager/confirmPasswordReset(_:)``): the account
    /// has a new password and the server ended every session it had, so ask the person to log in
    /// with it (say, with the address filled in).
    case passwordReset
}

/// Why a session ended.
public enum SignOutReason: String, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The app logged out (``SessionManager/logOut(everywhere:)``).
    case loggedOut
    /// The session ran out of time: the refresh token expired on the device's clock, or the
    /// server said `token_expired`.
    case expired
    /// The server ended it: logged out or revoked from another device or by a password change
    /// there (`session_revoked`), ended because its refresh token was used twice
    /// (`refresh_token_reused`), or no longer known to it (`token_invalid`: the account or
    /// session was deleted elsewhere).
    case revokedElsewhere
    /// This app deleted the account (``SessionManager/deleteAccount(proof:)``).
    case accountDeleted
    /// A sign-in on this manager replaced the session (a login, a sign-up or verification that
    /// signed in, a passkey or Apple, ``SessionManager/begin(with:)``): the old session was ended
    /// on the server too. ``SessionEvent/signedIn(_:)`` follows at once, and the state goes
    /// straight to the new user.
    case replacedBySignIn

    /// The reason's name (`loggedOut`), as logs and `print(event)` show it.
    public var description: String { rawValue }
    /// The reason's name, as ``description``.
    public var debugDescription: String { rawValue }

    /// The reason a session-ending error stands for.
    init(_ error: AccountError) {
        self = error == .sessionExpired ? .expired : .revokedElsewhere
    }
}
