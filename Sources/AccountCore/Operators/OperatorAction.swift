import AccountStore
import Foundation

/// An operator action: what the console and `account-server admin` do, each kept as an
/// audit event in the transaction that does it, so an action and its record commit together.
package enum OperatorAction: String, Sendable, CaseIterable {
    case adminGranted = "admin_granted"
    case adminRevoked = "admin_revoked"
    case accountDisabled = "account_disabled"
    case accountEnabled = "account_enabled"
    case sessionsEnded = "sessions_ended"
    case verificationResent = "verification_resent"
    case secondFactorRemoved = "second_factor_removed"
    case accountDeleted = "account_deleted"
}

/// Who acts: an operator signed in to the console, or someone at the server's command line.
package struct OperatorActor: Sendable, Equatable {
    /// What the audit log keeps: `account:<id>` or `cli:<name>`.
    package let text: String
    /// The request of a console action (`nil` on the command line).
    package let requestID: String?
    /// The operator's own account (`nil` on the command line), which they may not disable or delete.
    package var accountID: UUID? = nil

    /// An operator of the console, by account.
    package static func account(_ id: UUID, requestID: String) -> OperatorActor {
        OperatorActor(text: "account:" + id.lowercasedText, requestID: requestID, accountID: id)
    }

    /// Someone at the command line: `--actor` if given, else the OS user running the command.
    package static func commandLine(_ name: String) -> OperatorActor {
        OperatorActor(text: "cli:" + name, requestID: nil)
    }
}

/// The actions themselves, each inside the caller's transaction with its audit event.
package enum OperatorActions {
    /// Writes the audit event of `action` on `target`, its id drawn from `random`.
    package static func record(
        _ action: OperatorAction, by actor: OperatorActor, on target: UUID?, reason: String?, now: Date, random: Randomness,
        in tx: any StoreTransaction
    ) throws {
        try tx.insertAuditEvent(AuditEventRecord(
            id: random.uuid(), at: now, actor: actor.text, targetID: target, action: action.rawValue, reason: reason, requestID: actor.requestID))
    }

    /// Grants or revokes the admin role of `user`; returns whether it changed (the audit event is
    /// written only then).
    package static func setAdmin(
        _ isAdmin: Bool, of user: UserRecord, by actor: OperatorActor, reason: String?, now: Date, random: Randomness, in tx: any StoreTransaction
    ) throws -> Bool {
        guard let current = try tx.lockUser(id: user.id), current.isAdmin != isAdmin else { return false }
        try tx.setAdmin(userID: user.id, isAdmin)
        try record(isAdmin ? .adminGranted : .adminRevoked, by: actor, on: user.id, reason: reason, now: now, random: random, in: tx)
        return true
    }
}
