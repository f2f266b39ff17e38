import AccountAPI
import Foundation

/// How Sign in with Apple ended. (An account with a second factor throws
/// ``AccountError/secondFactorRequired(_:)`` instead, as a password login does.)
public enum AppleSignInOutcome: Sendable, Hashable {
    /// Signed in; the session holds the tokens.
    case signedIn(User)
    /// Apple's user is new here: the account is made once the person chooses a nickname and
    /// MBTI type (``SessionManager/completeAppleSignUp(_:username:mbti:)``).
    case profileRequired(AppleSignUp)
    /// No account has this Apple user, but one has its address: log in to it the usual way and
    /// link Apple from the profile. Nothing was linked or made.
    case linkRequired
    /// The person closed Apple's sheet: nothing changed and there is nothing to show.
    case cancelled
}

/// How linking Apple to the signed-in account ended.
public enum AppleLinkOutcome: Sendable, Hashable {
    /// Linked; the account as it is now (``AccountAPI/User/appleLinked`` on).
    case linked(User)
    /// The person closed Apple's sheet: nothing changed.
    case cancelled
}

/// A Sign in with Apple waiting for the new account's nickname and MBTI type: what
/// `403 profile_required` gave. Valid once, for `expiresIn` seconds (10 minutes) from when it arrived.
///
/// Prints without its token and address.
public struct AppleSignUp: Sendable, Hashable {
    /// The opaque, single-use token `POST /auth/apple/complete` takes.
    public let continuationToken: String
    /// The address Apple gave (a private relay address when the person hides theirs); the new
    /// account's, verified.
    public let email: String
    /// When it arrived, by this device's clock.
    public let receivedAt: Date
    /// Seconds it stays valid from then.
    public let expiresIn: Int

    /// A waiting sign-up as the server described it.
    public init(continuationToken: String, email: String, receivedAt: Date, expiresIn: Int) {
        self.continuationToken = continuationToken
        self.email = email
        self.receivedAt = receivedAt
        self.expiresIn = expiresIn
    }

    /// When the server stops accepting it, by this device's clock.
    public var expiresAt: Date { receivedAt.addingTimeInterval(TimeInterval(expiresIn)) }

    /// Whether its time is over at `now`: sign in with Apple again then.
    public func isExpired(at now: Date) -> Bool { now >= expiresAt }

    /// Whether the address is one of Apple's private relay addresses (`…@privaterelay.appleid.com`).
    public var isPrivateRelay: Bool { email.lowercased().hasSuffix("@privaterelay.appleid.com") }
}

extension AppleSignUp: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["continuationToken": Redaction.hidden, "email": Redaction.hidden, "receivedAt": receivedAt, "expiresIn": expiresIn]
    }
}

extension AppleSignInOutcome: CustomStringConvertible, CustomDebugStringConvertible {
    /// The outcome, without the sign-up's token and address.
    public var description: String {
        switch self {
        case .signedIn(let user): "signedIn(\(user))"
        case .profileRequired(let signUp): "profileRequired(\(signUp))"
        case .linkRequired: "linkRequired"
        case .cancelled: "cancelled"
        }
    }
    /// The outcome, without the sign-up's token and address.
    public var debugDescription: String { description }
}
