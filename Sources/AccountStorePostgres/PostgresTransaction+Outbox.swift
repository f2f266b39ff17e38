import Foundation
import AccountStore

private let outboxColumns = "id, recipient, subject, body, created_at, attempts, next_attempt_at"

extension PostgresTransaction {
    func enqueueMail(_ message: OutboxMessage) throws {
        try execute("INSERT INTO outbox (\(outboxColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)", [
            .uuid(message.id), .text(message.recipient), .text(message.subject), .text(message.body),
            .date(message.createdAt), .int(message.attempts), .date(message.nextAttemptAt),
        ])
    }

    func dueMail(now: Date, limit: Int) throws -> [OutboxMessage] {
        try query(
            "SELECT \(outboxColumns) FROM outbox WHERE next_attempt_at <= $1 ORDER BY created_at, id LIMIT $2",
            [.date(now), .int(limit)]
        ) { row in
            OutboxMessage(
                id: try row.uuid(0), recipient: row.text(1), subject: row.text(2), body: row.text(3),
                createdAt: row.date(4), attempts: row.int(5), nextAttemptAt: row.date(6))
        }
    }

    func claimMail(id: UUID, now: Date, until: Date) throws -> Bool {
        try execute(
            "UPDATE outbox SET next_attempt_at = $1 WHERE id = $2 AND next_attempt_at <= $3",
            [.date(until), .uuid(id), .date(now)]) > 0
    }

    func deleteMail(id: UUID) throws {
        try execute("DELETE FROM outbox WHERE id = $1", [.uuid(id)])
    }

    func rescheduleMail(id: UUID, attempts: Int, nextAttemptAt: Date) throws {
        try execute(
            "UPDATE outbox SET attempts = $1, next_attempt_at = $2 WHERE id = $3",
            [.int(attempts), .date(nextAttemptAt), .uuid(id)])
    }

    func outboxCount() throws -> Int {
        try first("SELECT COUNT(*) FROM outbox", []) { $0.int(0) } ?? 0
    }
}
