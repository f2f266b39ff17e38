/// `POST /auth/signup`: create an account.
///
/// Without `emailVerificationToken` (details first) no account is made yet: the nickname is held
/// and a code is mailed (reply ``SignUpAccepted``, 202); the account is made when the code is
/// verified (``EmailVerifyRequest``, which can sign it in too). With a token from
/// ``EmailVerified`` (email first) it starts verified and is signed in (reply ``TokenPair``, 201). Fields are optional in the type so that a server can tell a
/// missing field (`required`) from a wrong one; clients use the initializer.
public struct SignUpRequest: Codable, Hashable, Sendable {
    /// The nickname (``UsernameRule``).
    public var username: String?
    /// The email address (``EmailRule``).
    public var email: String?
    /// The password (``PasswordRule``).
    public var password: String?
    /// The password typed again; optional on the wire, `mismatch` when it differs.
    public var passwordConfirmation: String?
    /// One of the 16 types in any letter case; kept as text so a bad value is a field error (the
    /// initializer takes ``MBTI``).
    public var mbti: String?
    /// From ``EmailVerified`` (email-first flow): the account starts verified and signed in.
    public var emailVerificationToken: String?

    /// - Parameters:
    ///   - username: the nickname.
    ///   - email: the address; with `emailVerificationToken`, the one the token proves.
    ///   - password: the password.
    ///   - passwordConfirmation: the password typed again, when the screen asks for it.
    ///   - mbti: the MBTI type.
    ///   - emailVerificationToken: the proof of the address from ``EmailVerified``, or `nil` for
    ///     the details-first flow (a code is mailed).
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
    /// The address the code was sent to, as normalized.
    public let email: String
    /// Always `"code_sent"`.
    public let verification: String
    /// Seconds the code stays valid.
    public let expiresIn: Int
    /// Names this sign-up and no other (`signup_token`): send it with the code
    /// (``EmailVerifyRequest/signUpToken``), so that it completes this sign-up or nothing. A newer
    /// sign-up of the same address has another, so its code cannot sign this device in. Opaque;
    /// `nil` from a server before it.
    public let signUpToken: String?

    /// A reply for `email` whose code lives `expiresIn` seconds.
    public init(email: String, verification: String = "code_sent", expiresIn: Int, signUpToken: String? = nil) {
        self.email = email
        self.verification = verification
        self.expiresIn = expiresIn
        self.signUpToken = signUpToken
    }

    enum CodingKeys: String, CodingKey {
        case email, verification
        case expiresIn = "expires_in"
        case signUpToken = "signup_token"
    }
}
