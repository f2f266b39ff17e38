import AccountAPI
import AccountStore
import Foundation
import Mailer

/// How an operation commits a change its caller proved themselves for: `body` runs in one write
/// transaction with what the accepted step-up spends (the route hands in
/// ``Services/write(after:_:_:)`` for its step-up).
typealias SteppedUpWrite = @Sendable (_ body: @escaping @Sendable (any StoreTransaction) throws -> Void) async throws -> Void

extension SignedInCaller {
    /// Records `change`, a change of how the account proves who it is, in the transaction that
    /// makes it: the account's security event `event` and a notice to the owner's address naming
    /// the change, this caller's device and address.
    func recordChange(
        _ change: MailTemplates.SecurityChange, _ event: SecurityEventKind, of user: UserRecord, outbox: Outbox, in tx: any StoreTransaction
    ) throws {
        try origin.record(event, userID: user.id, at: now, in: tx)
        try queueNotice(change, to: user.email, outbox: outbox, in: tx)
    }

    /// Queues the notice of `change` to `address` (the account's own), outside the mail budget,
    /// naming this caller's device and address.
    func queueNotice(_ change: MailTemplates.SecurityChange, to address: String, outbox: Outbox, in tx: any StoreTransaction) throws {
        let from = MailTemplates.NoticeOrigin(device: origin.deviceName, address: origin.clientAddress, at: now)
        try outbox.queueNotice(MailTemplates.securityNotice(change, from: from, language: caller.language, to: address), in: tx, now: now)
    }
}
