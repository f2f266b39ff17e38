import AccountAPI
import AccountStore
import Foundation
import Mailer

/// The request's part in a change of how the signed-in account proves who it is: the step-up
/// proof read and checked, the change committed with what the proof spends, and the change
/// recorded with the owner's notice.
///
/// The routes give it from ``Services/stepUp(_:for:_:passwordField:into:)``,
/// ``Services/check(_:_:)``, ``Services/write(after:_:_:)`` and
/// ``Services/recordChange(_:_:_:of:_:in:)``, which read the signed-in request itself (an Apple
/// token is checked and refused with it).
protocol ProvenChanges: Sendable {
    /// Reads the step-up proof `proof` for `change`; the field errors go to `errors`.
    func stepUp(_ proof: StepUpProof, for change: SensitiveChange, into errors: inout FieldErrors) async throws -> StepUp?
    /// Checks the first proof of `stepUp` under the account's back-off.
    func check(_ stepUp: StepUp) async throws -> AcceptedStepUp
    /// Runs `body`, the change, in one write transaction with what `accepted` spends.
    func write<T: Sendable>(after accepted: AcceptedStepUp, _ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T
    /// Records `change` of the signed-in account in `tx`: its security event `event` (with
    /// `detail`) and the notice to the owner.
    func recordChange(
        _ change: MailTemplates.SecurityChange, _ event: SecurityEventKind, _ detail: [String: String], in tx: any StoreTransaction
    ) throws
}

extension ProvenChanges {
    /// The step-up `proof` gives for `change`, checked; a proof whose form is wrong is
    /// `400 validation_failed` with the field errors of `errors` and its own.
    func accepted(_ proof: StepUpProof, for change: SensitiveChange, adding errors: FieldErrors = FieldErrors()) async throws -> AcceptedStepUp {
        var errors = errors
        let stepUp = try await stepUp(proof, for: change, into: &errors)
        guard errors.isEmpty, let stepUp else { throw APIError.validation(errors) }
        return try await check(stepUp)
    }
}
