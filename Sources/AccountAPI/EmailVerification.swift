/// Why a one-time code is requested.
public enum CodePurpose: String, Codable, Sendable, CaseIterable {
    /// Email-first sign-up: prove the address before the account exists.
    case signup
    /// Verify the address of an existing, unverified account.
    case verify
}

/// `POST /auth/email/code`: mail a 6-digit code to `email`.
public struct EmailCodeRequest: Codable, Hashable, Sendable {
    /// The address to mail the code to.
    public var email: String?
    /// `"signup"` or `"verify"`; kept as text so a bad value is a field error.
    public var purpose: String?

    /// - Parameters:
    ///   - email: the address to mail the code to.
    ///   - purpose: `.signup` (email-first sign-up) or `.verify` (a sign-up or account waiting for its code).
    public init(email: String, purpose: CodePurpose) {
        self.email = email
        self.purpose = purpose.rawValue
    }
}

/// Reply of `POST /auth/email/code` (202). The same whether or not the address has an account.
public struct EmailCodeSent: Codable, Hashable, Sendable {
    /// The address, as normalized.
    public let email: String
    /// Seconds the code stays valid.
    public let expiresIn: Int

    /// A reply for `email` whose code lives `expiresIn` seconds.
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
///
/// With `signIn`, a code that completes a details-first sign-up (made within the server's
/// sign-in window, 30 minutes by default) also signs the new account in: the reply's
/// ``EmailVerified/session`` holds the token pair, so the app need not keep the password to log
/// in afterwards. Send the `signUpToken` of that sign-up's reply (``SignUpAccepted/signUpToken``)
/// with it: when a newer sign-up of the address replaced that one (someone else signing up the
/// address with their own password), the code is refused with ``ErrorCode/signUpSuperseded`` and
/// nothing is made. Without a token the server completes the address's pending sign-up unless it
/// replaced another client's (then it is refused the same way).
public struct EmailVerifyRequest: Codable, Hashable, Sendable {
    /// The address the code was mailed to.
    public var email: String?
    /// The 6-digit code from the mail.
    public var code: String?
    /// `true` asks for a session when the code completes a pending sign-up (`sign_in`); absent
    /// otherwise, so the request is byte for byte the original app's.
    public var signIn: Bool?
    /// The ``SignUpAccepted/signUpToken`` of the sign-up being verified (`signup_token`); optional,
    /// and checked whenever it is sent.
    public var signUpToken: String?

    /// - Parameters:
    ///   - email: the address the code was mailed to.
    ///   - code: the code from the mail.
    ///   - signIn: ask to be signed in when the code completes a details-first sign-up.
    ///   - signUpToken: that sign-up's token, from its reply; binds the code to that sign-up.
    public init(email: String, code: String, signIn: Bool = false, signUpToken: String? = nil) {
        self.email = email
        self.code = code
        self.signIn = signIn ? true : nil
        self.signUpToken = signUpToken
    }

    enum CodingKeys: String, CodingKey {
        case email, code
        case signIn = "sign_in"
        case signUpToken = "signup_token"
    }
}

/// Reply of `POST /auth/email/verify` (200).
///
/// `emailVerificationToken` is valid 30 minutes, once, and only for this address: pass it to
/// ``SignUpRequest`` to create an already verified account. `session` is there only when the
/// request asked to sign in (``EmailVerifyRequest/signIn``) and the code completed a
/// details-first sign-up in time.
public struct EmailVerified: Codable, Hashable, Sendable {
    /// The address, as normalized.
    public let email: String
    /// Always `true`.
    public let verified: Bool
    /// Single-use proof of the address for an email-first sign-up (30 minutes).
    public let emailVerificationToken: String
    /// The new account's session, when the request asked to sign in and the code completed a
    /// details-first sign-up within the server's sign-in window; `nil` otherwise (log in then).
    public let session: TokenPair?

    /// A reply; `session` only when the verification signed the account in.
    public init(email: String, verified: Bool = true, emailVerificationToken: String, session: TokenPair? = nil) {
        self.email = email
        self.verified = verified
        self.emailVerificationToken = emailVerificationToken
        self.session = session
    }

    enum CodingKeys: String, CodingKey {
        case email, verified, session
        case emailVerificationToken = "email_verification_token"
    }
}
