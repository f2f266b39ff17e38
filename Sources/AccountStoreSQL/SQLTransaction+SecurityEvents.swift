import AccountStore
import Foundation

/// An account's own security history, newest first by `(at, id)`: the key of
/// `security_events_user_at`, which every read and trim here follows.
private enum SecurityEventSQL {
    static let columns = "id, user_id, at, type, client_address, device_name, detail"
    static let insert = SQLStatement("INSERT INTO security_events (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?)")
    static let first = SQLStatement("""
        SELECT \(columns) FROM security_events WHERE user_id = ?
        ORDER BY at DESC, id DESC LIMIT ?
        """)
    static let after = SQLStatement("""
        SELECT \(columns) FROM security_events
        WHERE user_id = ? AND (at < ? OR (at = ? AND id < ?))
        ORDER BY at DESC, id DESC LIMIT ?
        """)
    /// Oldest first by `security_events_at`, a batch at a time.
    static let deleteBefore = SQLStatement("""
        DELETE FROM security_events WHERE id IN (
            SELECT id FROM security_events WHERE at < ? ORDER BY at LIMIT ?)
        """)
    static let accountsOver = SQLStatement("""
        SELECT user_id FROM security_events GROUP BY user_id HAVING COUNT(*) > ? LIMIT ?
        """)
    static let trim = SQLStatement("""
        DELETE FROM security_events WHERE user_id = ? AND id NOT IN (
            SELECT id FROM security_events WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?)
        """)
}

extension SQLTransaction {
    public func insertSecurityEvent(_ event: SecurityEventRecord) throws {
        try execute(SecurityEventSQL.insert, [
            .uuid(event.id), .uuid(event.userID), .date(event.at), .text(event.type),
            .text(event.clientAddress), .text(event.deviceName), .text(event.detail),
        ])
    }

    public func securityEvents(userID: UUID, after position: KeysetPosition?, limit: Int) throws -> [SecurityEventRecord] {
        let read: (any SQLRow) throws -> SecurityEventRecord = { row in
            SecurityEventRecord(
                id: try row.uuid(0), userID: try row.uuid(1), at: row.date(2), type: row.text(3),
                clientAddress: row.optionalText(4), deviceName: row.optionalText(5), detail: row.optionalText(6))
        }
        guard let position else { return try query(SecurityEventSQL.first, [.uuid(userID), .int(limit)], row: read) }
        return try query(
            SecurityEventSQL.after,
            [.uuid(userID), .date(position.time), .date(position.time), .uuid(position.id), .int(limit)], row: read)
    }

    @discardableResult
    public func deleteSecurityEvents(before date: Date, limit: Int) throws -> Int {
        try execute(SecurityEventSQL.deleteBefore, [.date(date), .int(limit)])
    }

    public func accountsWithSecurityEvents(over count: Int, limit: Int) throws -> [UUID] {
        try query(SecurityEventSQL.accountsOver, [.int(count), .int(limit)]) { try $0.uuid(0) }
    }

    @discardableResult
    public func trimSecurityEvents(userID: UUID, keeping: Int) throws -> Int {
        try execute(SecurityEventSQL.trim, [.uuid(userID), .uuid(userID), .int(keeping)])
    }
}
