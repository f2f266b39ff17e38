import AccountStore
import Foundation

/// Details-first sign-ups waiting for their address to be proven.
private enum PendingSignUpSQL {
    static let columns =
        "email_key, email, username, username_key, password_hash, mbti, created_at, expires_at, username_skeleton, username_display_skeleton, client, contested"
    static let upsert = SQLStatement("""
        INSERT INTO pending_signups (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (email_key) DO UPDATE SET email = excluded.email, username = excluded.username,
            username_key = excluded.username_key, password_hash = excluded.password_hash, mbti = excluded.mbti,
            created_at = excluded.created_at, expires_at = excluded.expires_at,
            username_skeleton = excluded.username_skeleton, username_display_skeleton = excluded.username_display_skeleton,
            client = excluded.client, contested = excluded.contested
        """)
    static let byEmailKey = SQLStatement("SELECT \(columns) FROM pending_signups WHERE email_key = ?")
    static let byUsernameKey = SQLStatement("SELECT \(columns) FROM pending_signups WHERE username_key = ?")
    static let bySkeleton = SQLStatement("SELECT \(columns) FROM pending_signups WHERE username_skeleton = ?")
    static let byDisplaySkeleton = SQLStatement("SELECT \(columns) FROM pending_signups WHERE username_display_skeleton = ?")
    static let delete = SQLStatement("DELETE FROM pending_signups WHERE email_key = ?")
    static let deleteExpired = SQLStatement("DELETE FROM pending_signups WHERE expires_at <= ?")
}

extension SQLTransaction {
    public func upsertPendingSignUp(_ pending: PendingSignUpRecord) throws {
        try execute(PendingSignUpSQL.upsert, [
            .text(pending.emailKey), .text(pending.email), .text(pending.username), .text(pending.usernameKey),
            .text(pending.passwordHash), .text(pending.mbti), .date(pending.createdAt), .date(pending.expiresAt),
            .text(pending.usernameSkeleton), .text(pending.usernameDisplaySkeleton), .blob(pending.client), .bool(pending.contested),
        ])
    }

    public func pendingSignUp(emailKey: String) throws -> PendingSignUpRecord? {
        try first(PendingSignUpSQL.byEmailKey, [.text(emailKey)]) { try PendingSignUpRecord(row: $0) }
    }

    public func pendingSignUp(usernameKey: String) throws -> PendingSignUpRecord? {
        try first(PendingSignUpSQL.byUsernameKey, [.text(usernameKey)]) { try PendingSignUpRecord(row: $0) }
    }

    public func pendingSignUp(usernameSkeleton: String, kind: SkeletonKind) throws -> PendingSignUpRecord? {
        let statement = kind == .folded ? PendingSignUpSQL.bySkeleton : PendingSignUpSQL.byDisplaySkeleton
        return try first(statement, [.text(usernameSkeleton)]) { try PendingSignUpRecord(row: $0) }
    }

    @discardableResult
    public func deletePendingSignUp(emailKey: String) throws -> Bool {
        try execute(PendingSignUpSQL.delete, [.text(emailKey)]) > 0
    }

    @discardableResult
    public func deletePendingSignUps(expiredBefore before: Date) throws -> Int {
        try execute(PendingSignUpSQL.deleteExpired, [.date(before)])
    }
}

extension PendingSignUpRecord {
    /// A pending sign-up from a row of `PendingSignUpSQL.columns`.
    fileprivate init(row: any SQLRow) throws {
        try self.init(
            emailKey: row.text(0), email: row.text(1), username: row.text(2), usernameKey: row.text(3),
            passwordHash: row.text(4), mbti: row.text(5), createdAt: row.date(6), expiresAt: row.date(7),
            usernameSkeleton: row.text(8), usernameDisplaySkeleton: row.text(9),
            client: row.optionalBlob(10), contested: row.bool(11))
    }
}
