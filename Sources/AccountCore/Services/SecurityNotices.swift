import AccountAPI
import AccountStore
import Foundation
import Mailer

extension Services {
    /// Records `change`, a change of how the account proves who it is, in the transaction that
    /// makes it: `event`, the change's ``DomainEvent/Kind/changed(_:_:logged:)`` event, through
    /// `ledger`, and a notice to the owner's address naming the change, the device and the address
    /// it came from. The notice is outside the mail budget (``Outbox/queueNotice(_:in:now:)``), so
    /// it is never dropped.
    package func recordChange(
        _ change: MailTemplates.SecurityChange, _ event: DomainEvent, of user: UserRecord, _ caller: SignedInCaller,
        in ledger: inout EventLedger
    ) throws {
        try ledger.record(event)
        try queueNotice(change, to: user.email, caller, in: ledger.tx)
    }

    /// Queues the notice of `change` to `address` (the account's own), outside the mail budget,
    /// naming the device and the address `caller` came from.
    package func queueNotice(_ change: MailTemplates.SecurityChange, to address: String, _ caller: SignedInCaller, in tx: any StoreTransaction) throws {
        let (origin, now) = (caller.origin, caller.now)
        let from = MailTemplates.NoticeOrigin(device: origin.deviceName, address: origin.clientAddress, at: now)
        try outbox.queueNotice(MailTemplates.securityNotice(change, from: from, language: caller.language, to: address), in: tx, now: now)
    }
}
