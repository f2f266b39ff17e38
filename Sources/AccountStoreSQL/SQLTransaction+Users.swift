import AccountStore
import Foundation

/// Accounts.
enum UserSQL {
    /// What `insertUser` and `updateUser` write.
    static let writtenColumns = """
        id, username, username_key, email, email_key, password_hash, mbti, email_verified, created_at, updated_at,
        username_skeleton, username_display_skeleton
        """
    /// What every read returns: the written columns, then the second factor's summary, which only
    /// the second-factor statements change (so a profile edit never undoes a spent recovery code).
    /// The operator's flags (`is_admin`, `disabled_at`) come last, changed only by their own statements.
    /// Whether an Apple ID is linked follows, changed only by the Sign in with Apple statements.
    static let columns = writtenColumns + ", totp_enabled, recovery_codes_left, is_admin, disabled_at, apple_linked"
    /// How many columns ``columns`` names: where a statement's own columns after them begin.
    static let columnCount = columns.split(separator: ",").count
    /// ``columns`` each prefixed with the table alias `alias` (for joins).
    static func columns(qualifiedBy alias: String) -> String {
        columns.split(separator: ",").map { "\(alias).\($0.trimmingCharacters(in: .whitespacesAndNewlines))" }
            .joined(separator: ", ")
    }
    static let insert = SQLStatement("INSERT INTO users (\(writtenColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    /// Runs on every `GET /auth/me`.
    static let byID = SQLStatement("SELECT \(columns) FROM users WHERE id = ?")
    /// The same row read to be changed (``StoreTransaction/lockUser(id:)``).
    static let byIDToChange = LockableRead("SELECT \(columns) FROM users WHERE id = ?")
    static let byUsernameKey = SQLStatement("SELECT \(columns) FROM users WHERE username_key = ?")
    static let byEmailKey = SQLStatement("SELECT \(columns) FROM users WHERE email_key = ?")
    static let bySkeleton = SQLStatement("SELECT \(columns) FROM users WHERE username_skeleton = ?")
    static let byDisplaySkeleton = SQLStatement("SELECT \(columns) FROM users WHERE username_display_skeleton = ?")
    static let update = SQLStatement("""
        UPDATE users SET username = ?, username_key = ?, email = ?, email_key = ?, password_hash = ?,
            mbti = ?, email_verified = ?, created_at = ?, updated_at = ?, username_skeleton = ?,
            username_display_skeleton = ?
        WHERE id = ?
        """)
    // Codes are keyed by address, not by user, so no foreign key cascades to them.
    static let deleteCodes = SQLStatement("DELETE FROM codes WHERE email_key IN (SELECT email_key FROM users WHERE id = ?)")
    static let delete = SQLStatement("DELETE FROM users WHERE id = ?")
    static let count = SQLStatement("SELECT COUNT(*) FROM users")
}

extension SQLTransaction {
    public func insertUser(_ user: UserRecord) throws {
        try execute(UserSQL.insert, [
            .uuid(user.id), .text(user.username), .text(user.usernameKey), .text(user.email),
            .text(user.emailKey), .text(user.passwordHash), .text(user.mbti), .bool(user.emailVerified),
            .date(user.createdAt), .date(user.updatedAt), .text(user.usernameSkeleton), .text(user.usernameDisplaySkeleton),
        ])
    }

    public func user(id: UUID) throws -> UserRecord? {
        try first(UserSQL.byID, [.uuid(id)]) { try UserRecord(row: $0) }
    }

    public func lockUser(id: UUID) throws -> UserRecord? {
        try first(statement(UserSQL.byIDToChange), [.uuid(id)]) { try UserRecord(row: $0) }
    }

    public func user(usernameKey: String) throws -> UserRecord? {
        try first(UserSQL.byUsernameKey, [.text(usernameKey)]) { try UserRecord(row: $0) }
    }

    public func user(emailKey: String) throws -> UserRecord? {
        try first(UserSQL.byEmailKey, [.text(emailKey)]) { try UserRecord(row: $0) }
    }

    /// Overwrites every field but `id`; does nothing if no account has `user.id`.
    public func updateUser(_ user: UserRecord) throws {
        try execute(UserSQL.update, [
            .text(user.username), .text(user.usernameKey), .text(user.email), .text(user.emailKey),
            .text(user.passwordHash), .text(user.mbti), .bool(user.emailVerified),
            .date(user.createdAt), .date(user.updatedAt), .text(user.usernameSkeleton), .text(user.usernameDisplaySkeleton),
            .uuid(user.id),
        ], changing: .user(user.id))
    }

    @discardableResult
    public func deleteUser(id: UUID) throws -> Bool {
        try execute(UserSQL.deleteCodes, [.uuid(id)])
        return try execute(UserSQL.delete, [.uuid(id)], changing: .user(id)) > 0
    }

    public func userCount() throws -> Int {
        try first(UserSQL.count, []) { $0.int(0) } ?? 0
    }

    public func user(usernameSkeleton: String, kind: SkeletonKind) throws -> UserRecord? {
        let statement = kind == .folded ? UserSQL.bySkeleton : UserSQL.byDisplaySkeleton
        return try first(statement, [.text(usernameSkeleton)]) { try UserRecord(row: $0) }
    }
}

extension UserRecord {
    /// The account whose ``UserSQL/columns`` start at column `first` of `row`.
    init(row: any SQLRow, at first: Int32 = 0) throws {
        self.init(
            id: try row.uuid(first), username: row.text(first + 1), usernameKey: row.text(first + 2),
            email: row.text(first + 3), emailKey: row.text(first + 4), passwordHash: row.text(first + 5),
            mbti: row.text(first + 6), emailVerified: row.bool(first + 7), createdAt: row.date(first + 8),
            updatedAt: row.date(first + 9), usernameSkeleton: row.text(first + 10),
            usernameDisplaySkeleton: row.text(first + 11), totpEnabled: row.bool(first + 12),
            recoveryCodesLeft: row.int(first + 13), isAdmin: row.bool(first + 14), disabledAt: row.optionalDate(first + 15),
            appleLinked: row.bool(first + 16))
    }
}
