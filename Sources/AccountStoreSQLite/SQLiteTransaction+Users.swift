import Foundation
import AccountStore

/// The columns of a user, in the order ``decodeUser(_:at:)`` reads them.
let userColumns = """
    id, username, username_key, email, email_key, password_hash, mbti, email_verified, created_at, updated_at,
    username_skeleton, username_display_skeleton
    """
// Made once: this read runs on every `GET /auth/me`.
private let selectUserByID = "SELECT \(userColumns) FROM users WHERE id = ?"

extension SQLiteTransaction {
    func insertUser(_ user: UserRecord) throws {
        try execute("INSERT INTO users (\(userColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
            .uuid(user.id), .text(user.username), .text(user.usernameKey), .text(user.email),
            .text(user.emailKey), .text(user.passwordHash), .text(user.mbti), .bool(user.emailVerified),
            .date(user.createdAt), .date(user.updatedAt), .text(user.usernameSkeleton), .text(user.usernameDisplaySkeleton),
        ])
    }

    func user(id: UUID) throws -> UserRecord? {
        try first(selectUserByID, [.uuid(id)], row: decodeUser)
    }

    func user(usernameKey: String) throws -> UserRecord? {
        try first("SELECT \(userColumns) FROM users WHERE username_key = ?", [.text(usernameKey)], row: decodeUser)
    }

    func user(emailKey: String) throws -> UserRecord? {
        try first("SELECT \(userColumns) FROM users WHERE email_key = ?", [.text(emailKey)], row: decodeUser)
    }

    /// Overwrites every field but `id`; does nothing if no account has `user.id`.
    func updateUser(_ user: UserRecord) throws {
        try execute("""
            UPDATE users SET username = ?, username_key = ?, email = ?, email_key = ?, password_hash = ?,
                mbti = ?, email_verified = ?, created_at = ?, updated_at = ?, username_skeleton = ?,
                username_display_skeleton = ?
            WHERE id = ?
            """, [
            .text(user.username), .text(user.usernameKey), .text(user.email), .text(user.emailKey),
            .text(user.passwordHash), .text(user.mbti), .bool(user.emailVerified),
            .date(user.createdAt), .date(user.updatedAt), .text(user.usernameSkeleton), .text(user.usernameDisplaySkeleton),
            .uuid(user.id),
        ])
    }

    @discardableResult
    func deleteUser(id: UUID) throws -> Bool {
        // Codes are keyed by address, not by user, so no foreign key cascades to them.
        try execute("DELETE FROM codes WHERE email_key IN (SELECT email_key FROM users WHERE id = ?)", [.uuid(id)])
        return try execute("DELETE FROM users WHERE id = ?", [.uuid(id)]) > 0
    }

    func userCount() throws -> Int {
        try first("SELECT COUNT(*) FROM users", []) { $0.int(0) } ?? 0
    }

    func user(usernameSkeleton: String, kind: SkeletonKind) throws -> UserRecord? {
        let column = kind == .folded ? "username_skeleton" : "username_display_skeleton"
        return try first("SELECT \(userColumns) FROM users WHERE \(column) = ?", [.text(usernameSkeleton)], row: decodeUser)
    }

    func usersWithoutSkeleton(limit: Int) throws -> [UserRecord] {
        try query("SELECT \(userColumns) FROM users WHERE username_skeleton IS NULL LIMIT ?", [.int(limit)], row: decodeUser)
    }
}

private func decodeUser(_ row: Row) throws -> UserRecord { try decodeUser(row, at: 0) }

/// The user whose ``userColumns`` start at column `first` of `row`.
func decodeUser(_ row: Row, at first: Int32) throws -> UserRecord {
    UserRecord(
        id: try row.uuid(first), username: row.text(first + 1), usernameKey: row.text(first + 2), email: row.text(first + 3),
        emailKey: row.text(first + 4), passwordHash: row.text(first + 5), mbti: row.text(first + 6), emailVerified: row.bool(first + 7),
        createdAt: row.date(first + 8), updatedAt: row.date(first + 9), usernameSkeleton: row.optionalText(first + 10),
        usernameDisplaySkeleton: row.optionalText(first + 11))
}
