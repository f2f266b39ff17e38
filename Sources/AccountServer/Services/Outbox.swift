import AccountStore
import Foundation
import Mailer

/// Writes mail into the outbox inside the caller's transaction; ``MailDispatcher`` delivers it.
enum Outbox {
    static func enqueue(_ message: MailMessage, in tx: any StoreTransaction, now: Date) throws {
        try tx.enqueueMail(OutboxMessage(
            id: UUID(), recipient: message.to, subject: message.subject, body: message.text,
            createdAt: now, nextAttemptAt: now))
    }
}
