import Foundation
import AccountStore
import AccountStoreSQL

extension PostgresTransaction {
    func upsertCode(_ code: CodeRecord) throws {
        try execute("""
            INSERT INTO codes (email_key, purpose, code_hash, created_at, expires_at, attempts)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (email_key, purpose) DO UPDATE SET code_hash = excluded.code_hash,
                created_at = excluded.created_at, expires_at = excluded.expires_at, attempts = excluded.attempts
            """, [
            .text(code.emailKey), .text(code.purpose), .blob(code.codeHash), .date(code.createdAt),
            .date(code.expiresAt), .int(code.attempts),
        ])
    }

    func code(emailKey: String, purpose: String) throws -> CodeRecord? {
        try first("""
            SELECT email_key, purpose, code_hash, created_at, expires_at, attempts
            FROM codes WHERE email_key = $1 AND purpose = $2
            """ + lockingClause, [.text(emailKey), .text(purpose)]
        ) { row in
            CodeRecord(
                emailKey: row.text(0), purpose: row.text(1), codeHash: try row.blob(2), createdAt: row.date(3),
                expiresAt: row.date(4), attempts: row.int(5))
        }
    }

    /// Adds one wrong try; returns the new count, or 0 when there is no such code.
    func incrementCodeAttempts(emailKey: String, purpose: String) throws -> Int {
        try first(
            "UPDATE codes SET attempts = attempts + 1 WHERE email_key = $1 AND purpose = $2 RETURNING attempts",
            [.text(emailKey), .text(purpose)]
        ) { $0.int(0) } ?? 0
    }

    @discardableResult
    func deleteCode(emailKey: String, purpose: String) throws -> Bool {
        try execute("DELETE FROM codes WHERE email_key = $1 AND purpose = $2", [.text(emailKey), .text(purpose)]) > 0
    }

    func insertVerificationToken(_ token: VerificationTokenRecord) throws {
        try execute(
            "INSERT INTO verification_tokens (hash, email_key, expires_at) VALUES ($1, $2, $3)",
            [.blob(token.hash), .text(token.emailKey), .date(token.expiresAt)])
    }

    func takeVerificationToken(hash: [UInt8]) throws -> VerificationTokenRecord? {
        try first(
            "DELETE FROM verification_tokens WHERE hash = $1 RETURNING hash, email_key, expires_at", [.blob(hash)]
        ) { row in
            VerificationTokenRecord(hash: try row.blob(0), emailKey: row.text(1), expiresAt: row.date(2))
        }
    }
}

extension PostgresTransaction {
    /// The conflicting row is locked by the upsert and its condition re-checked on the newest
    /// version after a competing writer commits, so one of simultaneous callers wins.
    func upsertCode(_ code: CodeRecord, ifCreatedBefore cutoff: Date) throws -> Bool {
        try first("""
            INSERT INTO codes (email_key, purpose, code_hash, created_at, expires_at, attempts)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (email_key, purpose) DO UPDATE SET code_hash = excluded.code_hash,
                created_at = excluded.created_at, expires_at = excluded.expires_at, attempts = excluded.attempts
            WHERE codes.created_at <= $7
            RETURNING created_at
            """, [
            .text(code.emailKey), .text(code.purpose), .blob(code.codeHash), .date(code.createdAt),
            .date(code.expiresAt), .int(code.attempts), .date(cutoff),
        ]) { _ in true } ?? false
    }
}
