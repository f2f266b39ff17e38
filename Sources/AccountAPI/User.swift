import Foundation

/// The account as clients see it (`GET /auth/me`, and `user` in a login reply).
///
/// Its `description`, `debugDescription` and mirror (what `print`, `String(describing:)` and `dump`
/// show) leave the email address out.
public struct User: Codable, Hashable, Sendable, Identifiable {
    /// The account's id.
    public let id: UUID
    /// The nickname, shown as it was entered (after NFC and trimming).
    public let username: String
    /// The email address, as stored (messages go to it).
    public let email: String
    /// Whether the address was proven with a code.
    public let emailVerified: Bool
    /// The MBTI type.
    public let mbti: MBTI
    /// When the account was made.
    public let createdAt: Date
    /// The account's second factor; `nil` from a server without second factors.
    public let mfa: SecondFactorStatus?
    /// Whether an Apple ID is linked (Sign in with Apple); `nil` from a server without it.
    public let appleLinked: Bool?
    /// Whether the account has a password (an account made with Apple has none until it sets one
    /// by the password reset); `nil` from a server from before.
    public let hasPassword: Bool?

    /// An account as the server describes it.
    public init(
        id: UUID, username: String, email: String, emailVerified: Bool, mbti: MBTI, createdAt: Date, mfa: SecondFactorStatus? = nil,
        appleLinked: Bool? = nil, hasPassword: Bool? = nil
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.emailVerified = emailVerified
        self.mbti = mbti
        self.createdAt = createdAt
        self.mfa = mfa
        self.appleLinked = appleLinked
        self.hasPassword = hasPassword
    }

    enum CodingKeys: String, CodingKey {
        case id, username, email
        case emailVerified = "email_verified"
        case mbti
        case createdAt = "created_at"
        case mfa
        case appleLinked = "apple_linked"
        case hasPassword = "has_password"
    }
}
