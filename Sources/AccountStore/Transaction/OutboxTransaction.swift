import Foundation

/// The mail outbox (`outbox`): messages written with the change that sends them, delivered later.
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol OutboxTransaction {
    func enqueueMail(_ message: OutboxMessage) throws
    /// Messages due at `now`, oldest first, at most `limit`.
    func dueMail(now: Date, limit: Int) throws -> [OutboxMessage]
    /// Claims a due message for sending until `until`; returns `false` if another sender has it.
    func claimMail(id: UUID, now: Date, until: Date) throws -> Bool
    /// Removes a delivered message.
    func deleteMail(id: UUID) throws
    /// Records a failed try and when to try again.
    func rescheduleMail(id: UUID, attempts: Int, nextAttemptAt: Date) throws
    /// How many messages wait.
    func outboxCount() throws -> Int
    /// Every waiting row of kind ``OutboxKind/mail``, whatever its due time or claim, oldest
    /// first: what sealing the database's secrets (or unsealing them) rewrites.
    func waitingMail() throws -> [OutboxMessage]
    /// Replaces the subject and body of the message `id` (with their sealed or opened text);
    /// returns whether it exists.
    @discardableResult func replaceMailText(id: UUID, subject: String, body: String) throws -> Bool
}
