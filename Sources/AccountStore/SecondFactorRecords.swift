import Foundation

/// An account's authenticator app (RFC 6238), one per account: enrolled, then confirmed.
public struct TOTPFactorRecord: Sendable, Equatable {
    public var userID: UUID
    /// The shared secret, sealed by the server; the store never sees it in clear.
    public var sealedSecret: [UInt8]
    public var createdAt: Date
    /// When the first code confirmed it; `nil` while enrolment waits (logins do not need it then).
    public var confirmedAt: Date?
    /// The last 30-second step whose code was accepted: no code of it or an earlier step is
    /// accepted again.
    public var lastStep: Int64?

    public init(userID: UUID, sealedSecret: [UInt8], createdAt: Date, confirmedAt: Date? = nil, lastStep: Int64? = nil) {
        self.userID = userID
        self.sealedSecret = sealedSecret
        self.createdAt = createdAt
        self.confirmedAt = confirmedAt
        self.lastStep = lastStep
    }
}

/// The second-factor step of one login (its `mfa_token`), known to the store by the token's hash.
public struct SecondFactorChallengeRecord: Sendable, Equatable {
    /// SHA-256 of the token text; unique.
    public var hash: [UInt8]
    public var userID: UUID
    public var createdAt: Date
    public var expiresAt: Date
    /// Wrong codes so far.
    public var attempts: Int
    /// The `amr` of the login's first step (`"apple"`); `nil` for the password.
    public var firstFactor: String?

    public init(hash: [UInt8], userID: UUID, createdAt: Date, expiresAt: Date, attempts: Int = 0, firstFactor: String? = nil) {
        self.hash = hash
        self.userID = userID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.firstFactor = firstFactor
    }
}
