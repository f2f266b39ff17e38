/// Why a one-time code is requested.
public enum CodePurpose: String, Codable, Sendable, CaseIterable {
    /// Email-first sign-up: prove the address before the account exists.
    case signup
    /// Verify the address of an existing, unverified account.
    case verify
}

/// `POST /auth/email/code`: mail a 6-digit code to `email`.
public struct EmailCodeRequest: Codable, Equatable, Sendable {
    public var email: String?
    /// `"signup"` or `"verify"`; kept as text so a bad value is a field error.
    public var purpose: String?

    public init(email: String, purpose: CodePurpose) {
        self.email = email
        self.purpose = purpose.rawValue
    }
}

/// Reply of `POST /auth/email/code` (202). The same whether or not the address has an account.
public struct EmailCodeSent: Codable, Equatable, Sendable {
    public let email: String
    /// Seconds the code stays valid.
    public let expiresIn: Int

    public init(email: String, expiresIn: Int) {
        self.email = email
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case email
        case expiresIn = "expires_in"
    }
}

/// `POST /auth/email/verify`: prove the address with the code that was mailed to it.
public struct EmailVerifyRequest: Codable, Equatable, Sendable {
    public var email: String?
    public var code: String?

    public init(email: String, code: String) {
        self.email = email
        self.code = code
    }
}

/// Reply of `POST /auth/email/verify` (200).
///
/// `emailVerificationToken` is valid 30 minutes, once, and only for this address: pass it to
/// ``SignUpRequest`` to create an already verified account.
public struct EmailVerified: Codable, Equatable, Sendable {
    public let email: String
    public let verified: Bool
    public let emailVerificationToken: String

    public init(email: String, verified: Bool = true, emailVerificationToken: String) {
        self.email = email
        self.verified = verified
        self.emailVerificationToken = emailVerificationToken
    }

    enum CodingKeys: String, CodingKey {
        case email, verified
        case emailVerificationToken = "email_verification_token"
    }
}
