import AccountAPI

/// A screen an app pushes on its account navigation stack, above the root (login or profile).
///
/// ```swift
/// navigationPath.append(AccountRoute.signUp)
/// ```
public enum AccountRoute: Hashable, Sendable {
    /// The app's sign-up, email first: the address and its mailed code (``EmailVerificationFlow``
    /// with purpose `.signup`), then ``verifiedSignUp(email:token:)``.
    case signUp
    /// The sign-up details for an address proven first: nickname, password twice and MBTI, with the
    /// address shown, not edited; the account is created verified with `token` and signed in.
    case verifiedSignUp(email: String, token: String)
    /// The email and code screen; `codeExpiresIn` (seconds) when the server mailed a code already,
    /// `nil` when none is on its way yet.
    case emailCode(email: String, purpose: CodePurpose, codeExpiresIn: Int?)
    /// Asking for a password reset code and choosing a new password.
    case passwordReset(email: String)
}

/// What the navigation stack does after a screen's model changed.
public enum NavigationStep: Hashable, Sendable {
    /// Nothing: the screen stays.
    case stay
    /// Show `route` above the current screen.
    case push(AccountRoute)
    /// Back one screen.
    case pop
    /// Go back to the root (login or profile, whichever the session state shows).
    case popToRoot
}

/// What the root of the account screens shows for a session state.
public enum RootScreen: Hashable, Sendable {
    /// Storage not read yet (a locked Keychain at launch): a quiet placeholder, neither login nor profile.
    case waiting
    /// No session, or storage that failed for good: the login screen (with ``AccountLaunch/message``
    /// saying what happened, when something did).
    case logIn
    /// A session: the profile of this user.
    case profile(User)
}
