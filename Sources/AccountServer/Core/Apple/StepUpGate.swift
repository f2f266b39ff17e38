import AccountAPI
import AccountStore
import Foundation
import Mailer

/// The step-up of the signed-in request a sensitive change is made for, as an operation spends
/// it: the proof checked, the change written with what the proof spends, and the change recorded.
/// The request layer provides it, holding the request the step-up helpers log and mail against
/// (``Services/check(_:_:)``, ``Services/write(after:_:_:)``, ``Services/recordChange(_:_:_:of:_:in:)``).
protocol StepUpGate: Sendable {
    /// Checks the step-up's first proof under the account's back-off.
    func accept() async throws -> AcceptedStepUp

    /// Runs `body`, the change, in one write transaction with what `accepted` spends.
    func write<T: Sendable>(after accepted: AcceptedStepUp, _ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T

    /// Records `change` of `user`'s sign-in methods in `tx`: the security event `event` and the
    /// notice to the owner.
    func recordChange(_ change: MailTemplates.SecurityChange, _ event: SecurityEventKind, of user: UserRecord, in tx: any StoreTransaction) throws
}
