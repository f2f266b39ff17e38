import AccountStore
import Foundation

/// Apple IDs linked to accounts (one each way), the continuations of new Apple users, and the
/// identity tokens accepted already.
private enum AppleSQL {
    static let columns = "subject, user_id, client_id, email, refresh_token, created_at"
    /// An Apple ID linked already, or an account with one, inserts nothing and returns no row.
    static let insert = SQLStatement("""
        INSERT INTO apple_identities (\(columns)) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT DO NOTHING RETURNING subject
        """)
    /// Read before a login or a link decides, so two of them for one Apple ID run in turn.
    static let bySubject = LockableRead("SELECT \(columns) FROM apple_identities WHERE subject = ?")
    static let byUser = SQLStatement("SELECT \(columns) FROM apple_identities WHERE user_id = ?")
    static let setRefreshToken = SQLStatement("UPDATE apple_identities SET refresh_token = ? WHERE subject = ?")
    static let delete = SQLStatement("DELETE FROM apple_identities WHERE user_id = ? RETURNING \(columns)")
    static let markUser = SQLStatement("UPDATE users SET apple_linked = ? WHERE id = ?")

    static let continuationColumns = "hash, subject, client_id, email, refresh_token, created_at, expires_at"
    static let insertContinuation = SQLStatement(
        "INSERT INTO apple_continuations (\(continuationColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)")
    static let continuation = LockableRead("SELECT \(continuationColumns) FROM apple_continuations WHERE hash = ?")
    static let deleteContinuation = SQLStatement("DELETE FROM apple_continuations WHERE hash = ?")
    static let deleteExpiredContinuations = SQLStatement("DELETE FROM apple_continuations WHERE expires_at <= ?")

    /// A token recorded already inserts nothing and returns no row.
    static let insertUsedToken = SQLStatement("""
        INSERT INTO apple_used_tokens (hash, expires_at) VALUES (?, ?)
        ON CONFLICT DO NOTHING RETURNING hash
        """)
    static let usedToken = SQLStatement("SELECT 1 FROM apple_used_tokens WHERE hash = ?")
    /// Oldest first by `apple_used_tokens_expires_at`, a batch at a time.
    static let deleteExpiredUsedTokens = SQLStatement("""
        DELETE FROM apple_used_tokens WHERE hash IN (
            SELECT hash FROM apple_used_tokens WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)
        """)
}

extension SQLTransaction {
    public func insertAppleIdentity(_ identity: AppleIdentityRecord) throws -> Bool {
        let inserted = try first(AppleSQL.insert, [
            .text(identity.subject), .uuid(identity.userID), .text(identity.clientID), .text(identity.email),
            .blob(identity.sealedRefreshToken), .date(identity.createdAt),
        ]) { _ in true } ?? false
        if inserted { try execute(AppleSQL.markUser, [.bool(true), .uuid(identity.userID)], changing: .user(identity.userID)) }
        return inserted
    }

    public func appleIdentity(subject: String) throws -> AppleIdentityRecord? {
        try first(statement(AppleSQL.bySubject), [.text(subject)], row: Self.appleIdentity)
    }

    public func appleIdentity(userID: UUID) throws -> AppleIdentityRecord? {
        try first(AppleSQL.byUser, [.uuid(userID)], row: Self.appleIdentity)
    }

    public func setAppleRefreshToken(subject: String, sealed: [UInt8]?) throws {
        try execute(AppleSQL.setRefreshToken, [.blob(sealed), .text(subject)])
    }

    public func deleteAppleIdentity(userID: UUID) throws -> AppleIdentityRecord? {
        guard let removed = try first(AppleSQL.delete, [.uuid(userID)], row: Self.appleIdentity) else { return nil }
        try execute(AppleSQL.markUser, [.bool(false), .uuid(userID)], changing: .user(userID))
        return removed
    }

    public func insertAppleContinuation(_ continuation: AppleContinuationRecord) throws {
        try execute(AppleSQL.insertContinuation, [
            .blob(continuation.hash), .text(continuation.subject), .text(continuation.clientID), .text(continuation.email),
            .blob(continuation.sealedRefreshToken), .date(continuation.createdAt), .date(continuation.expiresAt),
        ])
    }

    public func appleContinuation(hash: [UInt8]) throws -> AppleContinuationRecord? {
        try first(statement(AppleSQL.continuation), [.blob(hash)]) { row in
            AppleContinuationRecord(
                hash: try row.blob(0), subject: row.text(1), clientID: row.text(2), email: row.text(3),
                sealedRefreshToken: try row.optionalBlob(4), createdAt: row.date(5), expiresAt: row.date(6))
        }
    }

    @discardableResult
    public func deleteAppleContinuation(hash: [UInt8]) throws -> Bool {
        try execute(AppleSQL.deleteContinuation, [.blob(hash)]) > 0
    }

    @discardableResult
    public func deleteAppleContinuations(expiredBefore before: Date) throws -> Int {
        try execute(AppleSQL.deleteExpiredContinuations, [.date(before)])
    }

    public func insertUsedAppleToken(_ token: UsedAppleTokenRecord) throws -> Bool {
        try first(AppleSQL.insertUsedToken, [.blob(token.hash), .date(token.expiresAt)]) { _ in true } ?? false
    }

    public func appleTokenUsed(_ token: UsedAppleTokenRecord) throws -> Bool {
        try first(AppleSQL.usedToken, [.blob(token.hash)]) { _ in true } ?? false
    }

    @discardableResult
    public func deleteUsedAppleTokens(expiredBefore before: Date, limit: Int) throws -> Int {
        try execute(AppleSQL.deleteExpiredUsedTokens, [.date(before), .int(limit)])
    }

    private static func appleIdentity(_ row: any SQLRow) throws -> AppleIdentityRecord {
        AppleIdentityRecord(
            subject: row.text(0), userID: try row.uuid(1), clientID: row.text(2), email: row.text(3),
            sealedRefreshToken: try row.optionalBlob(4), createdAt: row.date(5))
    }
}
