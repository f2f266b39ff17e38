/// `GET /auth/policy`: the rules clients show and check before sending, so none is hard-coded.
public struct Policy: Codable, Hashable, Sendable {
    /// The nickname's limits.
    public struct Username: Codable, Hashable, Sendable {
        /// The limits as the server states them.
        public init(minLength: Int, maxLength: Int, allowedSymbols: [String]) {
            self.minLength = minLength
            self.maxLength = maxLength
            self.allowedSymbols = allowedSymbols
        }
        /// Fewest Unicode scalars (after NFC).
        public let minLength: Int
        /// Most Unicode scalars (after NFC).
        public let maxLength: Int
        /// Characters besides letters (Hangul included) and digits that a nickname may hold.
        public let allowedSymbols: [String]
        enum CodingKeys: String, CodingKey {
            case minLength = "min_length", maxLength = "max_length", allowedSymbols = "allowed_symbols"
        }
    }
    /// The email address's limits.
    public struct Email: Codable, Hashable, Sendable {
        /// The limit as the server states it.
        public init(maxLength: Int) { self.maxLength = maxLength }
        /// Most Unicode scalars.
        public let maxLength: Int
        enum CodingKeys: String, CodingKey { case maxLength = "max_length" }
    }
    /// The password's rules.
    public struct Password: Codable, Hashable, Sendable {
        /// The rules as the server states them.
        public init(minLength: Int, maxLength: Int, refusesCommon: Bool, refusesSimilar: Bool) {
            self.minLength = minLength
            self.maxLength = maxLength
            self.refusesCommon = refusesCommon
            self.refusesSimilar = refusesSimilar
        }
        /// Fewest Unicode scalars (after NFC).
        public let minLength: Int
        /// Most Unicode scalars (after NFC).
        public let maxLength: Int
        /// Whether passwords from the common-password list are refused (`too_common`).
        public let refusesCommon: Bool
        /// Whether passwords containing the nickname or email local part are refused (`too_similar`).
        public let refusesSimilar: Bool
        enum CodingKeys: String, CodingKey {
            case minLength = "min_length", maxLength = "max_length"
            case refusesCommon = "refuses_common", refusesSimilar = "refuses_similar"
        }
    }
    /// The one-time codes' rules.
    public struct Code: Codable, Hashable, Sendable {
        /// The rules as the server states them.
        public init(length: Int, lifetime: Int, resendCooldown: Int, maxAttempts: Int) {
            self.length = length
            self.lifetime = lifetime
            self.resendCooldown = resendCooldown
            self.maxAttempts = maxAttempts
        }
        /// Digits in a one-time code.
        public let length: Int
        /// Seconds a code stays valid.
        public let lifetime: Int
        /// Seconds to wait before asking for another code to the same address.
        public let resendCooldown: Int
        /// Wrong tries before a code is spent.
        public let maxAttempts: Int
        enum CodingKeys: String, CodingKey {
            case length, lifetime
            case resendCooldown = "resend_cooldown", maxAttempts = "max_attempts"
        }
    }

    /// The nickname's limits.
    public let username: Username
    /// The email address's limits.
    public let email: Email
    /// The password's rules.
    public let password: Password
    /// The MBTI types a sign-up may choose.
    public let mbtiTypes: [MBTI]
    /// The one-time codes' rules.
    public let code: Code
    /// Whether login is refused (`email_not_verified`) until the address is verified.
    public let emailVerificationRequired: Bool
    /// Seconds an access token lives.
    public let accessTokenLifetime: Int
    /// Seconds a session survives without a refresh.
    public let sessionIdleLifetime: Int
    /// Seconds a session lives at most, however often it is refreshed.
    public let sessionMaxLifetime: Int

    /// A policy as the server states it.
    public init(
        username: Username, email: Email, password: Password, mbtiTypes: [MBTI], code: Code,
        emailVerificationRequired: Bool, accessTokenLifetime: Int, sessionIdleLifetime: Int,
        sessionMaxLifetime: Int
    ) {
        self.username = username
        self.email = email
        self.password = password
        self.mbtiTypes = mbtiTypes
        self.code = code
        self.emailVerificationRequired = emailVerificationRequired
        self.accessTokenLifetime = accessTokenLifetime
        self.sessionIdleLifetime = sessionIdleLifetime
        self.sessionMaxLifetime = sessionMaxLifetime
    }

    enum CodingKeys: String, CodingKey {
        case username, email, password
        case mbtiTypes = "mbti_types"
        case code
        case emailVerificationRequired = "email_verification_required"
        case accessTokenLifetime = "access_token_lifetime"
        case sessionIdleLifetime = "session_idle_lifetime"
        case sessionMaxLifetime = "session_max_lifetime"
    }
}

