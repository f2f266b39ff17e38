import Foundation
import AccountStore

private let outboxColumns = "id, recipient, subject, body, created_at, attempts, next_attempt_at"

extension SQLiteTransaction {
    func enqueueMail(_ message: OutboxMessage) throws {
        try execute("INSERT INTO outbox (\(outboxColumns)) VALUES (?, ?, ?, ?, ?, ?, ?)", [
            .uuid(message.id), .text(message.recipient), .text(message.subject), .text(message.body),
            .date(message.createdAt), .int(message.attempts), .date(message.nextAttemptAt),
        ])
    }

    func dueMail(now: Date, limit: Int) throws -> [OutboxMessage] {
        try query(
            "SELECT \(outboxColumns) FROM outbox WHERE next_attempt_at <= ? ORDER BY created_at, id LIMIT ?",
            [.date(now), .int(limit)]
        ) { row in
            OutboxMessage(
                id: try row.uuid(0), recipient: row.text(1), subject: row.text(2), body: row.text(3),
                createdAt: row.date(4), attempts: row.int(5), nextAttemptAt: row.date(6))
        }
    }

    func claimMail(id: UUID, now: Date, until: Date) throws -> Bool {
        try execute(
            "UPDATE outbox SET next_attempt_at = ? WHERE id = ? AND next_attempt_at <= ?",
            [.date(until), .uuid(id), .date(now)]) > 0
    }

    func deleteMail(id: UUID) throws {
        try execute("DELETE FROM outbox WHERE id = ?", [.uuid(id)])
    }

    func rescheduleMail(id: UUID, attempts: Int, nextAttemptAt: Date) throws {
        try execute(
            "UPDATE outbox SET attempts = ?, next_attempt_at = ? WHERE id = ?",
            [.int(attempts), .date(nextAttemptAt), .uuid(id)])
    }

    func outboxCount() throws -> Int {
        try first("SELECT COUNT(*) FROM outbox", []) { $0.int(0) } ?? 0
    }
}
