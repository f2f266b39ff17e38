import AccountStore
import Foundation

/// One-time codes (one per address and purpose) and verification tokens.
private enum CodeSQL {
    static let columns = "email_key, purpose, code_hash, created_at, expires_at, attempts"
    static let upsert = SQLStatement("""
        INSERT INTO codes (\(columns)) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (email_key, purpose) DO UPDATE SET code_hash = excluded.code_hash,
            created_at = excluded.created_at, expires_at = excluded.expires_at, attempts = excluded.attempts
        """)
    /// The same upsert, which leaves a code created after the cutoff in place. On PostgreSQL the
    /// conflicting row is locked by the upsert and the condition re-checked on its newest version
    /// after a competing writer commits, so one of simultaneous callers wins.
    static let upsertIfCreatedBefore = SQLStatement("""
        INSERT INTO codes (\(columns)) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (email_key, purpose) DO UPDATE SET code_hash = excluded.code_hash,
            created_at = excluded.created_at, expires_at = excluded.expires_at, attempts = excluded.attempts
        WHERE codes.created_at <= ?
        RETURNING created_at
        """)
    /// Read before a code is spent or counted.
    static let byAddress = LockableRead("SELECT \(columns) FROM codes WHERE email_key = ? AND purpose = ?")
    static let countAttempt = SQLStatement(
        "UPDATE codes SET attempts = attempts + 1 WHERE email_key = ? AND purpose = ? RETURNING attempts")
    static let delete = SQLStatement("DELETE FROM codes WHERE email_key = ? AND purpose = ?")
}

private enum VerificationTokenSQL {
    static let insert = SQLStatement("INSERT INTO verification_tokens (hash, email_key, expires_at) VALUES (?, ?, ?)")
    static let take = SQLStatement("DELETE FROM verification_tokens WHERE hash = ? RETURNING hash, email_key, expires_at")
}

extension SQLTransaction {
    public func upsertCode(_ code: CodeRecord) throws {
        try execute(CodeSQL.upsert, Self.parameters(code))
    }

    public func upsertCode(_ code: CodeRecord, ifCreatedBefore cutoff: Date) throws -> Bool {
        try first(CodeSQL.upsertIfCreatedBefore, Self.parameters(code) + [.date(cutoff)]) { _ in true } ?? false
    }

    public func code(emailKey: String, purpose: String) throws -> CodeRecord? {
        try first(statement(CodeSQL.byAddress), [.text(emailKey), .text(purpose)]) { row in
            CodeRecord(
                emailKey: row.text(0), purpose: row.text(1), codeHash: try row.blob(2), createdAt: row.date(3),
                expiresAt: row.date(4), attempts: row.int(5))
        }
    }

    /// Adds one wrong try; returns the new count, or 0 when there is no such code.
    public func incrementCodeAttempts(emailKey: String, purpose: String) throws -> Int {
        try first(CodeSQL.countAttempt, [.text(emailKey), .text(purpose)]) { $0.int(0) } ?? 0
    }

    @discardableResult
    public func deleteCode(emailKey: String, purpose: String) throws -> Bool {
        try execute(CodeSQL.delete, [.text(emailKey), .text(purpose)]) > 0
    }

    public func insertVerificationToken(_ token: VerificationTokenRecord) throws {
        try execute(VerificationTokenSQL.insert, [.blob(token.hash), .text(token.emailKey), .date(token.expiresAt)])
    }

    public func takeVerificationToken(hash: [UInt8]) throws -> VerificationTokenRecord? {
        try first(VerificationTokenSQL.take, [.blob(hash)]) { row in
            VerificationTokenRecord(hash: try row.blob(0), emailKey: row.text(1), expiresAt: row.date(2))
        }
    }

    /// The values of `CodeSQL.columns`, in order.
    private static func parameters(_ code: CodeRecord) -> [SQLValue] {
        [
            .text(code.emailKey), .text(code.purpose), .blob(code.codeHash), .date(code.createdAt),
            .date(code.expiresAt), .int(code.attempts),
        ]
    }
}
