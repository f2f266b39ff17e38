/// `POST /auth/signup`: create an account.
///
/// Without `emailVerificationToken` the account starts unverified and a code is mailed
/// (reply ``SignUpAccepted``, 202); with a token from ``EmailVerified`` it starts verified and is
/// signed in (reply ``TokenPair``, 201). Fields are optional in the type so that a server can tell a
/// missing field (`required`) from a wrong one; clients use the initializer.
public struct SignUpRequest: Codable, Hashable, Sendable {
    public var username: String?
    public var email: String?
    public var password: String?
    public var passwordConfirmation: String?
    /// One of the 16 types in any letter case; kept as text so a bad value is a field error.
    public var mbti: String?
    public var emailVerificationToken: String?

    public init(
        username: String, email: String, password: String, passwordConfirmation: String? = nil,
        mbti: MBTI, emailVerificationToken: String? = nil
    ) {
        self.username = username
        self.email = email
        self.password = password
        self.passwordConfirmation = passwordConfirmation
        self.mbti = mbti.rawValue
        self.emailVerificationToken = emailVerificationToken
    }

    enum CodingKeys: String, CodingKey {
        case username, email, password
        case passwordConfirmation = "password_confirmation"
        case mbti
        case emailVerificationToken = "email_verification_token"
    }
}

/// Reply of a sign-up without a verification token (202): a code was sent to `email`.
public struct SignUpAccepted: Codable, Hashable, Sendable {
    public let email: String
    /// Always `"code_sent"`.
    public let verification: String
    /// Seconds the code stays valid.
    public let expiresIn: Int

    public init(email: String, verification: String = "code_sent", expiresIn: Int) {
        self.email = email
        self.verification = verification
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case email, verification
        case expiresIn = "expires_in"
    }
}
