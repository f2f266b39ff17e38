import AccountStore
import AccountStoreSQL
import Foundation

private let pendingColumns =
    "email_key, email, username, username_key, password_hash, mbti, created_at, expires_at, username_skeleton, username_display_skeleton"

extension SQLiteTransaction {
    func upsertPendingSignUp(_ pending: PendingSignUpRecord) throws {
        try execute("""
            INSERT INTO pending_signups (\(pendingColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (email_key) DO UPDATE SET email = excluded.email, username = excluded.username,
                username_key = excluded.username_key, password_hash = excluded.password_hash, mbti = excluded.mbti,
                created_at = excluded.created_at, expires_at = excluded.expires_at,
                username_skeleton = excluded.username_skeleton, username_display_skeleton = excluded.username_display_skeleton
            """, [
            .text(pending.emailKey), .text(pending.email), .text(pending.username), .text(pending.usernameKey),
            .text(pending.passwordHash), .text(pending.mbti), .date(pending.createdAt), .date(pending.expiresAt),
            .text(pending.usernameSkeleton), .text(pending.usernameDisplaySkeleton),
        ])
    }

    func pendingSignUp(emailKey: String) throws -> PendingSignUpRecord? {
        try first("SELECT \(pendingColumns) FROM pending_signups WHERE email_key = ?", [.text(emailKey)], row: decodePending)
    }

    func pendingSignUp(usernameKey: String) throws -> PendingSignUpRecord? {
        try first("SELECT \(pendingColumns) FROM pending_signups WHERE username_key = ?", [.text(usernameKey)], row: decodePending)
    }

    func pendingSignUp(usernameSkeleton: String, kind: SkeletonKind) throws -> PendingSignUpRecord? {
        let column = kind == .folded ? "username_skeleton" : "username_display_skeleton"
        return try first("SELECT \(pendingColumns) FROM pending_signups WHERE \(column) = ?", [.text(usernameSkeleton)], row: decodePending)
    }

    @discardableResult
    func deletePendingSignUp(emailKey: String) throws -> Bool {
        try execute("DELETE FROM pending_signups WHERE email_key = ?", [.text(emailKey)]) > 0
    }

    @discardableResult
    func deletePendingSignUps(expiredBefore before: Date) throws -> Int {
        try execute("DELETE FROM pending_signups WHERE expires_at <= ?", [.date(before)])
    }
}

private func decodePending(_ row: Row) throws -> PendingSignUpRecord {
    PendingSignUpRecord(
        emailKey: row.text(0), email: row.text(1), username: row.text(2), usernameKey: row.text(3),
        passwordHash: row.text(4), mbti: row.text(5), createdAt: row.date(6), expiresAt: row.date(7),
        usernameSkeleton: row.text(8), usernameDisplaySkeleton: row.text(9))
}
