import Foundation

/// An account as stored: the public fields plus the keys that make names unique and the hash.
public struct UserRecord: Sendable, Equatable {
    public var id: UUID
    /// The nickname as entered (NFC, trimmed).
    public var username: String
    /// Case-folded NFKC form of `username`; unique.
    public var usernameKey: String
    /// The address as entered (NFKC, trimmed); every mail to the account goes here.
    public var email: String
    /// NFKC case-folded form of `email`; unique.
    public var emailKey: String
    /// Argon2id PHC string.
    public var passwordHash: String
    /// Upper-case MBTI type.
    public var mbti: String
    public var emailVerified: Bool
    public var createdAt: Date
    public var updatedAt: Date
    /// UTS #39 confusable skeleton of `usernameKey` (case folded first), folded again; unique, so
    /// `admin` and `admın` cannot both exist. Every stored account has one (the column is
    /// `NOT NULL`); `nil` only in a record not stored yet.
    public var usernameSkeleton: String?
    /// UTS #39 confusable skeleton of `username` as shown (case kept), folded; unique, so `paypal`
    /// and `paypaI` (capital i) cannot both exist. Set exactly when `usernameSkeleton` is.
    public var usernameDisplaySkeleton: String?
    /// Whether logins need a second factor (a confirmed authenticator app). Kept by the store's
    /// second-factor operations (``StoreTransaction/confirmTOTP(userID:at:step:)`` and
    /// ``StoreTransaction/disableTOTP(userID:)``); `insertUser` and `updateUser` leave it alone.
    public var totpEnabled: Bool
    /// Unused recovery codes, kept by the store's recovery-code operations like `totpEnabled`.
    public var recoveryCodesLeft: Int
    /// Whether the account may use the operators' console (`/admin/api/...`); granted and revoked
    /// only from the command line (``StoreTransaction/setAdmin(userID:_:)``); `insertUser` and
    /// `updateUser` leave it alone.
    public var isAdmin: Bool
    /// When an operator disabled the account (`nil` while it may sign in); kept by
    /// ``StoreTransaction/setDisabled(userID:at:)`` alone. Read with every session, so a disabled
    /// account's tokens stop at once.
    public var disabledAt: Date?
    /// Whether an Apple ID is linked; kept by the Sign in with Apple operations
    /// (``StoreTransaction/insertAppleIdentity(_:)``, ``StoreTransaction/deleteAppleIdentity(userID:)``)
    /// alone, like `totpEnabled`.
    public var appleLinked: Bool

    /// Whether the account has a password: an account made with Apple stores an empty hash, which
    /// no password matches, until it sets one by the password reset.
    public var hasPassword: Bool { !passwordHash.isEmpty }

    public init(
        id: UUID, username: String, usernameKey: String, email: String, emailKey: String,
        passwordHash: String, mbti: String, emailVerified: Bool, createdAt: Date, updatedAt: Date,
        usernameSkeleton: String? = nil, usernameDisplaySkeleton: String? = nil,
        totpEnabled: Bool = false, recoveryCodesLeft: Int = 0, isAdmin: Bool = false, disabledAt: Date? = nil,
        appleLinked: Bool = false
    ) {
        self.id = id
        self.username = username
        self.usernameKey = usernameKey
        self.email = email
        self.emailKey = emailKey
        self.passwordHash = passwordHash
        self.mbti = mbti
        self.emailVerified = emailVerified
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.usernameSkeleton = usernameSkeleton
        self.usernameDisplaySkeleton = usernameDisplaySkeleton
        self.totpEnabled = totpEnabled
        self.recoveryCodesLeft = recoveryCodesLeft
        self.isAdmin = isAdmin
        self.disabledAt = disabledAt
        self.appleLinked = appleLinked
    }
}

/// A login session: one device or app install, alive while its refresh tokens are used.
public struct SessionRecord: Sendable, Equatable {
    public var id: UUID
    public var userID: UUID
    public var createdAt: Date
    public var lastUsedAt: Date
    /// The absolute end of the session, however often it is refreshed.
    public var expiresAt: Date
    public var userAgent: String?
    /// Set when the session was logged out or revoked.
    public var revokedAt: Date?
    /// How the login that opened it was authenticated (RFC 8176 `amr` values, `["pwd"]` or
    /// `["pwd", "otp"]`); every access token of the session carries them.
    public var amr: [String]
    /// The address of the client that last used it (opened or refreshed it), so its owner and the
    /// operators can recognise it; `nil` once the session has ended (personal data, not kept past
    /// the session's life).
    public var clientAddress: String?

    public init(
        id: UUID, userID: UUID, createdAt: Date, lastUsedAt: Date, expiresAt: Date,
        userAgent: String?, revokedAt: Date? = nil, amr: [String] = ["pwd"], clientAddress: String? = nil
    ) {
        self.id = id
        self.userID = userID
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.userAgent = userAgent
        self.revokedAt = revokedAt
        self.amr = amr
        self.clientAddress = clientAddress
    }
}

/// Where a session's refresh tokens stand, kept in the session's own row: a refresh writes this
/// and nothing else.
///
/// Tokens of one session form a chain of generations, each derived from the one before; only the
/// current one (``generation``) is known to the store, by a keyed hash. The time it was issued is
/// the session's ``SessionRecord/lastUsedAt``.
public struct SessionRefresh: Sendable, Equatable {
    /// The generation of the session's current refresh token: 0 for the token of the sign-in.
    public var generation: Int64
    /// A keyed hash of the current token (never the token).
    public var tokenHash: [UInt8]
    /// A keyed fingerprint of the client that traded the generation before for this one (its
    /// User-Agent and address), so the grace repeat goes to that client alone; `nil` for the
    /// token of the sign-in.
    public var rotatedBy: [UInt8]?

    public init(generation: Int64, tokenHash: [UInt8], rotatedBy: [UInt8]? = nil) {
        self.generation = generation
        self.tokenHash = tokenHash
        self.rotatedBy = rotatedBy
    }
}

/// What a refresh decides on: the session, where its tokens stand, and its account.
public struct RefreshableSession: Sendable {
    public var session: SessionRecord
    public var refresh: SessionRefresh
    public var user: UserRecord

    public init(session: SessionRecord, refresh: SessionRefresh, user: UserRecord) {
        self.session = session
        self.refresh = refresh
        self.user = user
    }
}

/// A one-time email code, known to the store only by a keyed hash. One per address and purpose.
public struct CodeRecord: Sendable, Equatable {
    public var emailKey: String
    /// `"signup"`, `"verify"` or `"reset"`.
    public var purpose: String
    /// HMAC of the code bound to address and purpose.
    public var codeHash: [UInt8]
    public var createdAt: Date
    public var expiresAt: Date
    /// Wrong tries so far.
    public var attempts: Int

    public init(emailKey: String, purpose: String, codeHash: [UInt8], createdAt: Date, expiresAt: Date, attempts: Int = 0) {
        self.emailKey = emailKey
        self.purpose = purpose
        self.codeHash = codeHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
    }
}

/// A single-use proof that an address was verified (`email_verification_token`), by its hash.
public struct VerificationTokenRecord: Sendable, Equatable {
    /// SHA-256 of the token text; unique.
    public var hash: [UInt8]
    public var emailKey: String
    public var expiresAt: Date

    public init(hash: [UInt8], emailKey: String, expiresAt: Date) {
        self.hash = hash
        self.emailKey = emailKey
        self.expiresAt = expiresAt
    }
}

/// An Ed25519 key that signs access tokens.
public struct SigningKeyRecord: Sendable, Equatable {
    /// Key id, the `kid` of tokens it signed.
    public var kid: String
    /// The 32-byte seed the key pair is made from.
    public var seed: [UInt8]
    /// The 32-byte public key.
    public var publicKey: [UInt8]
    public var createdAt: Date
    /// When a newer key took over signing; still in the JWKS until its tokens expire.
    public var retiredAt: Date?

    public init(kid: String, seed: [UInt8], publicKey: [UInt8], createdAt: Date, retiredAt: Date? = nil) {
        self.kid = kid
        self.seed = seed
        self.publicKey = publicKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }
}

/// What an outbox row delivers: mail (the default), or a call to another service.
public enum OutboxKind: String, Sendable, Equatable {
    case mail
    /// Revoking an Apple grant at Apple's revoke endpoint (Sign in with Apple): `recipient` is the
    /// client id the grant was issued to, `body` the sealed Apple refresh token in base64, and
    /// `subject` empty.
    case appleRevocation = "apple_revocation"
}

/// A mail message waiting in the outbox, written in the same transaction as what caused it (or,
/// by its ``kind``, another delivery retried the same way).
public struct OutboxMessage: Sendable, Equatable {
    public var id: UUID
    public var recipient: String
    public var subject: String
    /// The plain-text body.
    public var body: String
    public var createdAt: Date
    /// Delivery tries so far.
    public var attempts: Int
    /// Not to be tried before this time (back-off, or a claim by a sender).
    public var nextAttemptAt: Date
    public var kind: OutboxKind

    public init(
        id: UUID, recipient: String, subject: String, body: String, createdAt: Date, attempts: Int = 0, nextAttemptAt: Date,
        kind: OutboxKind = .mail
    ) {
        self.id = id
        self.recipient = recipient
        self.subject = subject
        self.body = body
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.kind = kind
    }
}

/// Failed-login bookkeeping for one account (or one unknown identifier), shared by every server.
public struct LoginThrottleRecord: Sendable, Equatable {
    /// The account id, or the folded identifier of an account that does not exist.
    public var key: String
    /// Tries counted in the current window (a try is counted before its password is checked).
    public var failures: Int
    public var windowStart: Date
    /// Tries are refused until then.
    public var lockedUntil: Date?
    /// Back-offs so far in this streak; each one doubles the next.
    public var lockouts: Int

    public init(key: String, failures: Int = 0, windowStart: Date, lockedUntil: Date? = nil, lockouts: Int = 0) {
        self.key = key
        self.failures = failures
        self.windowStart = windowStart
        self.lockedUntil = lockedUntil
        self.lockouts = lockouts
    }
}

/// A fixed-window counter (requests of one client address, codes to one address), shared by
/// every server.
public struct RateCounter: Sendable, Equatable {
    /// Events counted in the current window, this one included.
    public var count: Int
    public var windowStart: Date

    public init(count: Int, windowStart: Date) {
        self.count = count
        self.windowStart = windowStart
    }
}

/// Which of a nickname's two skeletons (see ``UserRecord``).
public enum SkeletonKind: Sendable, CaseIterable {
    /// Of the case-folded key: `usernameSkeleton`.
    case folded
    /// Of the nickname as shown: `usernameDisplaySkeleton`.
    case displayed
}

/// A details-first sign-up waiting for its address to be proven, keyed by the address.
///
/// It holds the nickname until `expiresAt`, the same way whether the address is free or already
/// has an account, so nothing observable tells the two apart. The account is made from it when
/// the code mailed to the address is verified.
public struct PendingSignUpRecord: Sendable, Equatable {
    /// Case-folded form of `email`; one pending sign-up per address.
    public var emailKey: String
    /// The address as entered (trimmed).
    public var email: String
    /// The nickname as entered (NFC, trimmed).
    public var username: String
    /// Case-folded NFKC form of `username`; held by at most one pending sign-up.
    public var usernameKey: String
    /// Argon2id PHC string of the chosen password.
    public var passwordHash: String
    /// Upper-case MBTI type.
    public var mbti: String
    public var createdAt: Date
    /// The nickname is held until then.
    public var expiresAt: Date
    /// The nickname's two confusable skeletons, as ``UserRecord`` keeps them; each unique among
    /// pending sign-ups, so a look-alike is held too.
    public var usernameSkeleton: String
    public var usernameDisplaySkeleton: String
    /// A keyed fingerprint of the client that made the sign-up (its User-Agent and address);
    /// `nil` for a sign-up stored before fingerprints were kept.
    public var client: [UInt8]?
    /// Whether this sign-up took the place of another one of the address made by a different
    /// client (or of one that was itself contested), which its code could still have completed.
    public var contested: Bool

    public init(
        emailKey: String, email: String, username: String, usernameKey: String, passwordHash: String, mbti: String,
        createdAt: Date, expiresAt: Date, usernameSkeleton: String, usernameDisplaySkeleton: String,
        client: [UInt8]? = nil, contested: Bool = false
    ) {
        self.emailKey = emailKey
        self.email = email
        self.username = username
        self.usernameKey = usernameKey
        self.passwordHash = passwordHash
        self.mbti = mbti
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usernameSkeleton = usernameSkeleton
        self.usernameDisplaySkeleton = usernameDisplaySkeleton
        self.client = client
        self.contested = contested
    }
}
