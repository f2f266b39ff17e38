import AccountStore
import Foundation

/// Passkeys, by credential id (unique across accounts) and by the id the API names them by.
private enum PasskeySQL {
    static let columns = """
        id, credential_id, user_id, name, public_key, algorithm, sign_count, backup_eligible, backed_up, aaguid, transports, \
        created_at, last_used_at
        """
    /// A credential id already stored (on any account) inserts nothing and returns no row.
    static let insert = SQLStatement("""
        INSERT INTO passkeys (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (credential_id) DO NOTHING RETURNING id
        """)
    /// Read before an assertion's counter is judged, so two logins with one credential run in turn.
    static let byCredentialID = LockableRead("SELECT \(columns) FROM passkeys WHERE credential_id = ?")
    static let byUser = SQLStatement("SELECT \(columns) FROM passkeys WHERE user_id = ? ORDER BY created_at, id")
    static let countByUser = SQLStatement("SELECT COUNT(*) FROM passkeys WHERE user_id = ?")
    static let recordUse = SQLStatement("UPDATE passkeys SET sign_count = ?, backed_up = ?, last_used_at = ? WHERE id = ?")
    static let delete = SQLStatement("DELETE FROM passkeys WHERE id = ? AND user_id = ?")
}

/// Issued WebAuthn challenges, taken once.
private enum WebAuthnChallengeSQL {
    static let insert = SQLStatement("INSERT INTO webauthn_challenges (hash, purpose, user_id, expires_at) VALUES (?, ?, ?, ?)")
    /// One statement: of simultaneous answers to one challenge (on any server) one gets the row.
    static let take = SQLStatement("DELETE FROM webauthn_challenges WHERE hash = ? RETURNING purpose, user_id, expires_at")
    static let deleteExpired = SQLStatement("DELETE FROM webauthn_challenges WHERE expires_at <= ?")
}

extension SQLTransaction {
    public func insertPasskey(_ passkey: PasskeyRecord) throws -> Bool {
        try first(PasskeySQL.insert, [
            .uuid(passkey.id), .blob(passkey.credentialID), .uuid(passkey.userID), .text(passkey.name), .blob(passkey.publicKey),
            .int(passkey.algorithm), .integer(passkey.signCount), .bool(passkey.backupEligible), .bool(passkey.backedUp),
            .blob(passkey.aaguid), .text(passkey.transports.joined(separator: ",")), .date(passkey.createdAt), .date(passkey.lastUsedAt),
        ]) { _ in true } ?? false
    }

    public func passkey(credentialID: [UInt8]) throws -> PasskeyRecord? {
        try first(statement(PasskeySQL.byCredentialID), [.blob(credentialID)], row: Self.passkey)
    }

    public func passkeys(userID: UUID) throws -> [PasskeyRecord] {
        try query(PasskeySQL.byUser, [.uuid(userID)], row: Self.passkey)
    }

    public func passkeyCount(userID: UUID) throws -> Int {
        try first(PasskeySQL.countByUser, [.uuid(userID)]) { $0.int(0) } ?? 0
    }

    public func recordPasskeyUse(id: UUID, signCount: Int64, backedUp: Bool, at date: Date) throws {
        try execute(PasskeySQL.recordUse, [.integer(signCount), .bool(backedUp), .date(date), .uuid(id)])
    }

    @discardableResult
    public func deletePasskey(id: UUID, userID: UUID) throws -> Bool {
        try execute(PasskeySQL.delete, [.uuid(id), .uuid(userID)]) > 0
    }

    public func insertWebAuthnChallenge(_ challenge: WebAuthnChallengeRecord) throws {
        try execute(WebAuthnChallengeSQL.insert, [
            .blob(challenge.hash), .text(challenge.purpose.rawValue), .uuid(challenge.userID), .date(challenge.expiresAt),
        ])
    }

    public func takeWebAuthnChallenge(hash: [UInt8]) throws -> WebAuthnChallengeRecord? {
        try first(WebAuthnChallengeSQL.take, [.blob(hash)]) { row in
            guard let purpose = WebAuthnChallengeRecord.Purpose(rawValue: row.text(0)) else {
                throw StoreError.failure(reason: "a WebAuthn challenge has an unknown purpose")
            }
            return WebAuthnChallengeRecord(
                hash: hash, purpose: purpose, userID: row.isNull(1) ? nil : try row.uuid(1), expiresAt: row.date(2))
        }
    }

    @discardableResult
    public func deleteWebAuthnChallenges(expiredBefore before: Date) throws -> Int {
        try execute(WebAuthnChallengeSQL.deleteExpired, [.date(before)])
    }

    private static func passkey(_ row: any SQLRow) throws -> PasskeyRecord {
        let transports = row.text(10)
        return PasskeyRecord(
            id: try row.uuid(0), credentialID: try row.blob(1), userID: try row.uuid(2), name: row.text(3), publicKey: try row.blob(4),
            algorithm: row.int(5), signCount: row.int64(6), backupEligible: row.bool(7), backedUp: row.bool(8), aaguid: try row.blob(9),
            transports: transports.isEmpty ? [] : transports.split(separator: ",").map(String.init), createdAt: row.date(11),
            lastUsedAt: row.optionalDate(12))
    }
}
