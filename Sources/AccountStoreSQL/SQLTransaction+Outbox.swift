import AccountStore
import Foundation

/// The mail outbox.
private enum OutboxSQL {
    static let columns = "id, recipient, subject, body, created_at, attempts, next_attempt_at, kind"
    static let insert = SQLStatement("INSERT INTO outbox (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    static let due = SQLStatement(
        "SELECT \(columns) FROM outbox WHERE next_attempt_at <= ? ORDER BY created_at, id LIMIT ?")
    static let claim = SQLStatement("UPDATE outbox SET next_attempt_at = ? WHERE id = ? AND next_attempt_at <= ?")
    static let delete = SQLStatement("DELETE FROM outbox WHERE id = ?")
    static let reschedule = SQLStatement("UPDATE outbox SET attempts = ?, next_attempt_at = ? WHERE id = ?")
    static let count = SQLStatement("SELECT COUNT(*) FROM outbox")
    static let waitingMail = SQLStatement("SELECT \(columns) FROM outbox WHERE kind = 'mail' ORDER BY created_at, id")
    static let replaceText = SQLStatement("UPDATE outbox SET subject = ?, body = ? WHERE id = ?")
}

extension SQLTransaction {
    public func enqueueMail(_ message: OutboxMessage) throws {
        queuedMail = true
        try execute(OutboxSQL.insert, [
            .uuid(message.id), .text(message.recipient), .text(message.subject), .text(message.body),
            .date(message.createdAt), .int(message.attempts), .date(message.nextAttemptAt), .text(message.kind.rawValue),
        ])
    }

    public func dueMail(now: Date, limit: Int) throws -> [OutboxMessage] {
        try query(OutboxSQL.due, [.date(now), .int(limit)], row: Self.outboxMessage).compactMap { $0 }
    }

    public func waitingMail() throws -> [OutboxMessage] {
        try query(OutboxSQL.waitingMail, [], row: Self.outboxMessage).compactMap { $0 }
    }

    /// The message of a row of ``OutboxSQL/columns``; `nil` for a kind a newer server wrote,
    /// which is left to it: this one would not know how to deliver it.
    private static func outboxMessage(_ row: any SQLRow) throws -> OutboxMessage? {
        guard let kind = OutboxKind(rawValue: row.text(7)) else { return nil }
        return OutboxMessage(
            id: try row.uuid(0), recipient: row.text(1), subject: row.text(2), body: row.text(3),
            createdAt: row.date(4), attempts: row.int(5), nextAttemptAt: row.date(6), kind: kind)
    }

    public func claimMail(id: UUID, now: Date, until: Date) throws -> Bool {
        try execute(OutboxSQL.claim, [.date(until), .uuid(id), .date(now)]) > 0
    }

    public func deleteMail(id: UUID) throws {
        try execute(OutboxSQL.delete, [.uuid(id)])
    }

    @discardableResult
    public func replaceMailText(id: UUID, subject: String, body: String) throws -> Bool {
        try execute(OutboxSQL.replaceText, [.text(subject), .text(body), .uuid(id)]) > 0
    }

    public func rescheduleMail(id: UUID, attempts: Int, nextAttemptAt: Date) throws {
        try execute(OutboxSQL.reschedule, [.int(attempts), .date(nextAttemptAt), .uuid(id)])
    }

    public func outboxCount() throws -> Int {
        try first(OutboxSQL.count, []) { $0.int(0) } ?? 0
    }
}
