import Foundation

/// A passkey (WebAuthn credential) of an account, as registration verified it.
public struct PasskeyRecord: Sendable, Equatable {
    /// The id the API names it by.
    public var id: UUID
    /// The credential id the authenticator chose (1…1023 bytes); unique across all accounts.
    public var credentialID: [UInt8]
    public var userID: UUID
    /// The device name the owner gave it.
    public var name: String
    /// Its COSE_Key, exactly as the authenticator sent it.
    public var publicKey: [UInt8]
    /// The COSE algorithm (-7, -8, -257).
    public var algorithm: Int
    /// The last signature counter accepted (0 when the authenticator keeps none).
    public var signCount: Int64
    /// BE: it may be synced to other devices; fixed at registration.
    public var backupEligible: Bool
    /// BS: it was backed up at its last use.
    public var backedUp: Bool
    /// The authenticator's model as it said (16 bytes, zeros when it did not), never trusted.
    public var aaguid: [UInt8]
    /// The transports the client reported (`internal`, `hybrid`, …), for `allowCredentials` hints.
    public var transports: [String]
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(
        id: UUID, credentialID: [UInt8], userID: UUID, name: String, publicKey: [UInt8], algorithm: Int, signCount: Int64,
        backupEligible: Bool, backedUp: Bool, aaguid: [UInt8], transports: [String], createdAt: Date, lastUsedAt: Date? = nil
    ) {
        self.id = id
        self.credentialID = credentialID
        self.userID = userID
        self.name = name
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.aaguid = aaguid
        self.transports = transports
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// A WebAuthn challenge the server issued and has not seen answered, by the challenge's SHA-256.
/// Stored, not signed, so that it is single use on every server sharing the database.
public struct WebAuthnChallengeRecord: Sendable, Equatable {
    /// What a challenge is for.
    public enum Purpose: String, Sendable {
        /// Registering a passkey for ``WebAuthnChallengeRecord/userID``.
        case registration
        /// Logging in with any passkey (no account known yet).
        case login
        /// Proving a sensitive change with one of ``WebAuthnChallengeRecord/userID``'s passkeys,
        /// from the session the challenge's hash is bound to.
        case reauthentication
    }

    /// SHA-256 of the challenge bytes; unique.
    public var hash: [UInt8]
    public var purpose: Purpose
    /// The account registering or reauthenticating; `nil` for a login.
    public var userID: UUID?
    public var expiresAt: Date

    public init(hash: [UInt8], purpose: Purpose, userID: UUID?, expiresAt: Date) {
        self.hash = hash
        self.purpose = purpose
        self.userID = userID
        self.expiresAt = expiresAt
    }
}
