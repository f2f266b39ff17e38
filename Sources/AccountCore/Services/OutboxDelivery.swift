import AccountStore

/// A delivery of an outbox row that is not mail (its ``OutboxKind``), run by ``MailDispatcher``
/// with the mail's claim and back-off: a thrown error is a failed try, retried later.
package protocol OutboxDelivery: Sendable {
    /// Delivers `message`; returning means it is done with (delivered, or given up for good and
    /// logged), and the row is removed.
    func deliver(_ message: OutboxMessage) async throws
}
