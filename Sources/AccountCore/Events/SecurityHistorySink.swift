import AccountAPI
import AccountStore
import Foundation

/// The account's security history: the `security_events` row of an event, written in the
/// transaction of the change it records (``EventLedger``), or nothing for an event the history
/// does not keep. Events of no account, and refusals, have no row.
package enum SecurityHistorySink {
    /// Writes the row of `event` in `tx`, as row `id`, if it has one.
    static func write(_ event: DomainEvent, id: UUID, in tx: any StoreTransaction) throws {
        guard let userID = event.userID else { return }
        let row: (SecurityEventKind, [String: String])
        switch event.kind {
        case .signedIn(_, let method):
            row = (.loginSucceeded, ["method": method.rawValue])
        case .checkFailed(let check, let via):
            // The account was read before its proof was checked, outside any transaction: locked
            // now (before the back-off's row, in the order a deletion takes them), a deletion that
            // committed first is seen and one that comes after removes the row with the account.
            guard try tx.lockUser(id: userID) != nil else { return }
            row = (.loginFailed, ["check": check.rawValue, "via": via])
        case .sessionsEnded(let count, let reason):
            guard count > 0 else { return }
            row = (.sessionEnded, ["reason": reason.rawValue, "count": String(count)])
        case .changed(let kind, let detail, _):
            row = (kind, detail)
        case .loginRefused, .secondFactorRequired, .refreshed, .signedUp, .codeSent, .signUpCodeMailed, .logged:
            return
        }
        let origin = event.source.origin
        try tx.insertSecurityEvent(SecurityEventRecord(
            id: id, userID: userID, at: event.at, type: row.0.rawValue, clientAddress: origin.clientAddress, deviceName: origin.deviceName,
            detail: SecurityEventDetail.text(row.1)))
    }
}
