import AccountStore
import Foundation

/// The operators' console: the admin role, disabled accounts and the audit log.
private enum AdminSQL {
    static let setAdmin = SQLStatement("UPDATE users SET is_admin = ? WHERE id = ?")
    /// Uses the partial index `users_admins`.
    static let admins = SQLStatement("SELECT \(UserSQL.columns) FROM users WHERE is_admin = TRUE ORDER BY username_key")
    static let setDisabled = SQLStatement("UPDATE users SET disabled_at = ? WHERE id = ?")
    static let auditColumns = "id, at, actor, target_id, action, reason, request_id"
    static let insertAudit = SQLStatement("INSERT INTO audit_events (\(auditColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)")
    /// Newest first by `(at, id)`, the key of `audit_events_at`.
    static let auditFirst = SQLStatement("SELECT \(auditColumns) FROM audit_events ORDER BY at DESC, id DESC LIMIT ?")
    static let auditAfter = SQLStatement("""
        SELECT \(auditColumns) FROM audit_events
        WHERE at < ? OR (at = ? AND id < ?)
        ORDER BY at DESC, id DESC LIMIT ?
        """)
}

extension SQLTransaction {
    @discardableResult
    public func setAdmin(userID: UUID, _ isAdmin: Bool) throws -> Bool {
        try execute(AdminSQL.setAdmin, [.bool(isAdmin), .uuid(userID)], changing: .user(userID)) > 0
    }

    public func admins() throws -> [UserRecord] {
        try query(AdminSQL.admins, []) { try UserRecord(row: $0) }
    }

    @discardableResult
    public func setDisabled(userID: UUID, at date: Date?) throws -> Bool {
        try execute(AdminSQL.setDisabled, [.date(date), .uuid(userID)], changing: .user(userID)) > 0
    }

    public func insertAuditEvent(_ event: AuditEventRecord) throws {
        try execute(AdminSQL.insertAudit, [
            .uuid(event.id), .date(event.at), .text(event.actor), event.targetID.map { .uuid($0) } ?? .null,
            .text(event.action), .text(event.reason), .text(event.requestID),
        ])
    }

    public func auditEvents(after position: KeysetPosition?, limit: Int) throws -> [AuditEventRecord] {
        let read: (any SQLRow) throws -> AuditEventRecord = { row in
            AuditEventRecord(
                id: try row.uuid(0), at: row.date(1), actor: row.text(2), targetID: row.isNull(3) ? nil : try row.uuid(3),
                action: row.text(4), reason: row.optionalText(5), requestID: row.optionalText(6))
        }
        guard let position else { return try query(AdminSQL.auditFirst, [.int(limit)], row: read) }
        return try query(
            AdminSQL.auditAfter, [.date(position.time), .date(position.time), .uuid(position.id), .int(limit)], row: read)
    }
}
