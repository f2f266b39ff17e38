import AccountAPI
import AccountStore
import Foundation
import Mailer

/// The one way into the outbox, under each recipient's mail budget.
package struct Outbox: Sendable {
    package let budget: MailBudget
    /// Seals each message's subject and body before it is written, when the server has a
    /// `--secret-key-file` (see `SecretSeal+Outbox.swift`): a waiting message holds a live code.
    package let seal: SecretSeal
    /// Where the messages' ids are drawn from.
    package let random: Randomness

    /// Writes mail into the outbox inside the caller's transaction, if the recipient's mail budget
    /// allows it; ``MailDispatcher`` delivers it. Every message the server sends goes through here.
    ///
    /// One budget per address, for every kind of message together (codes, notices, anything
    /// later): at most one per `mailInterval` seconds and `mailsPerHour` an hour, counted in the
    /// database so that every server on it shares the count. A message over budget is dropped
    /// (and counted in the log, without the address); the caller answers as if it had been sent, so
    /// a spent budget tells a client nothing. Returns whether the message was queued.
    @discardableResult
    package func queue(_ message: MailMessage, in tx: any StoreTransaction, now: Date) throws -> Bool {
        guard try spendMailBudget(emailKey: EmailRule.key(EmailRule.normalize(message.to)), now: now, in: tx) else {
            Log.event("mail_suppressed", ["reason": "address_budget"])
            return false
        }
        try enqueue(message, in: tx, now: now)
        return true
    }

    /// Writes a security notice to an account's own address into the outbox, outside the mail
    /// budget: only someone who passed the account's password and second factor (or holds its
    /// session) can cause one, so it cannot be used to flood a stranger, and a notice the owner
    /// must see (a recovery code used a minute after the factor was turned on) is never dropped.
    package func queueNotice(_ message: MailMessage, in tx: any StoreTransaction, now: Date) throws {
        try enqueue(message, in: tx, now: now)
    }

    private func enqueue(_ message: MailMessage, in tx: any StoreTransaction, now: Date) throws {
        try tx.enqueueMail(seal.sealed(mail: OutboxMessage(
            id: random.uuid(), recipient: message.to, subject: message.subject, body: message.text,
            createdAt: now, nextAttemptAt: now)))
    }

    /// Counts one message to `emailKey`; `false` when the address had its messages for now.
    ///
    /// Two fixed windows on shared counters, each one atomic statement, so simultaneous messages
    /// on several servers are counted one after another: the interval's window opens with a
    /// message and refuses any other until it ends; the hour's counts the messages that passed it.
    private func spendMailBudget(emailKey: String, now: Date, in tx: any StoreTransaction) throws -> Bool {
        let (interval, perHour) = (budget.interval, budget.perHour)
        if interval > 0, try tx.incrementRateCounter(key: "mail:\(emailKey):interval", now: now, window: TimeInterval(interval)).count > 1 {
            return false
        }
        if perHour > 0, try tx.incrementRateCounter(key: "mail:\(emailKey):hour", now: now, window: 3600).count > perHour {
            return false
        }
        return true
    }
}
