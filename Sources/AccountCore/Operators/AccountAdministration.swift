import AccountAPI
import AccountStore
import Foundation
import Mailer

/// What an operator does to accounts, the one way the admin API and
/// `account-server admin users …` both do it: each action runs in one transaction with its audit
/// event and the account's history rows (``DomainEvents/write(_:)``), on the account locked for
/// it, and throws ``APIError`` (`not_found`, `cannot_act_on_self`, `already_verified`,
/// `rate_limited`) with nothing written.
package struct AccountAdministration: Sendable {
    package let services: Services

    // MARK: Reading

    /// A page of the search: up to `limit` rows in the query's order, and where the next page
    /// starts if there is one; a cursor of another order (another kind of prefix, or none) is
    /// `invalid_request`.
    package func search(_ query: AdminUserQuery, after: AdminSearchPosition?, limit: Int) async throws -> AdminSearchPage {
        if let after, !query.orders(after) { throw APIError.invalidAfter }
        return try await services.store.read { try $0.adminUsers(query, after: after, limit: limit) }
    }

    /// One account with its live sessions and passkeys, read together; `not_found` if none has `id`.
    package func account(id: UUID, now: Date) async throws -> AdminAccount {
        let policy = services.sessions.policy
        let found = try await services.store.read { tx -> AdminAccount? in
            guard let row = try tx.adminUser(id: id) else { return nil }
            let sessions = try tx.sessions(userID: id).filter { $0.revokedAt == nil && policy.isLive($0, now: now) }
            return AdminAccount(
                row: row, sessions: sessions, passkeys: try tx.passkeys(userID: id),
                events: try tx.securityEvents(userID: id, after: nil, limit: AdminAccount.eventCount))
        }
        guard let found else { throw APIError.notFound }
        return found
    }

    // MARK: Actions

    /// Disables the account and ends every session at once (a disabled account keeps its first
    /// `disabled_at`); logins then get `403 account_disabled`.
    package func disable(_ id: UUID, by actor: OperatorActor, reason: String, now: Date) async throws -> AdminUserRow {
        try refuseSelf(id, actor)
        return try await act(.accountDisabled, on: id, by: actor, reason: reason, now: now) { user, tx, ledger in
            if user.disabledAt == nil {
                try tx.setDisabled(userID: id, at: now)
                try ledger.record(Self.event(.changed(.accountDisabled), of: id, at: now))
            }
            let ended = try tx.revokeSessions(userID: id, except: nil, at: now)
            try ledger.record(Self.event(.sessionsEnded(count: ended, .accountDisabled), of: id, at: now))
            try tx.deleteSecondFactorChallenges(userID: id, expiredBefore: nil)
            return try tx.adminUser(id: id)!
        }
    }

    /// Lets a disabled account sign in again (its ended sessions stay ended).
    package func enable(_ id: UUID, by actor: OperatorActor, reason: String, now: Date) async throws -> AdminUserRow {
        try await act(.accountEnabled, on: id, by: actor, reason: reason, now: now) { user, tx, ledger in
            if user.disabledAt != nil {
                try tx.setDisabled(userID: id, at: nil)
                try ledger.record(Self.event(.changed(.accountEnabled), of: id, at: now))
            }
            return try tx.adminUser(id: id)!
        }
    }

    /// Ends every live session; returns how many there were.
    package func endSessions(_ id: UUID, by actor: OperatorActor, reason: String, now: Date) async throws -> Int {
        try await act(.sessionsEnded, on: id, by: actor, reason: reason, now: now) { _, tx, ledger in
            let ended = try tx.revokeSessions(userID: id, except: nil, at: now)
            try ledger.record(Self.event(.sessionsEnded(count: ended, .operatorEnded), of: id, at: now))
            return ended
        }
    }

    /// Mails a new verification code to the account's address through the code issuer, under its
    /// resend cooldown and hourly count (`rate_limited` writes nothing, the audit event included).
    package func resendVerification(_ id: UUID, by actor: OperatorActor, reason: String, language: Language, now: Date) async throws {
        let (codes, minutes) = (services.codes, services.configuration.codeTTL / 60)
        try await act(.verificationResent, on: id, by: actor, reason: reason, now: now) { user, tx, _ in
            guard !user.emailVerified else { throw APIError.alreadyVerified }
            try codes.issue(emailKey: user.emailKey, purpose: CodePurpose.verify.rawValue, now: now, in: tx) { code in
                .code(MailTemplates.code(code, purpose: .verify, language: language, lifetimeMinutes: minutes, to: user.email))
            }
        }
    }

    /// Removes the authenticator app, every recovery code and pending `mfa_token`, and tells the
    /// owner by mail; passkeys stay (each is its owner's to remove). Never an operator's own: the
    /// owner's `DELETE /auth/mfa/totp` asks for proof, and an operator gets no shortcut around it.
    package func removeSecondFactor(_ id: UUID, by actor: OperatorActor, reason: String, language: Language, now: Date) async throws -> AdminUserRow {
        try refuseSelf(id, actor)
        let outbox = services.outbox
        let row = try await act(.secondFactorRemoved, on: id, by: actor, reason: reason, now: now) { user, tx, ledger in
            if try tx.disableTOTP(userID: id) {
                try ledger.record(Self.event(.changed(.mfaDisabled, ["by": "operator"]), of: id, at: now))
                // The operator's own device and address are not the account's business.
                let notice = MailTemplates.securityNotice(
                    .secondFactorDisabled, from: MailTemplates.NoticeOrigin(device: nil, address: nil, at: now), language: language, to: user.email)
                try outbox.queueNotice(notice, in: tx, now: now)
            }
            try tx.deleteSecondFactorChallenges(userID: id, expiredBefore: nil)
            return try tx.adminUser(id: id)!
        }
        return row
    }

    /// Deletes the account as its owner's `DELETE /auth/me` does (``Services/deleteAccount(id:now:in:)``),
    /// a linked Apple ID's revocation included.
    package func delete(_ id: UUID, by actor: OperatorActor, reason: String, now: Date) async throws {
        try refuseSelf(id, actor)
        let services = services
        try await act(.accountDeleted, on: id, by: actor, reason: reason, now: now) { _, tx, _ in
            _ = try services.deleteAccount(id: id, now: now, in: tx)
        }
        // The outbox may now hold the Apple revocation.
    }

    /// Runs `body` on the account `id`, locked, and writes the audit event in the same transaction;
    /// the account's events `body` records go through the ledger it is handed.
    private func act<T: Sendable>(
        _ action: OperatorAction, on id: UUID, by actor: OperatorActor, reason: String, now: Date,
        _ body: @escaping @Sendable (UserRecord, any StoreTransaction, inout EventLedger) throws -> T
    ) async throws -> T {
        try await services.events.write { tx, ledger in
            guard let user = try tx.lockUser(id: id) else { throw APIError.notFound }
            let result = try body(user, tx, &ledger)
            try OperatorActions.record(action, by: actor, on: id, reason: reason, now: now, random: services.random, in: tx)
            return result
        }
    }

    /// The event `kind` of the account `id` at `now`, from no source: an operator's own address
    /// and device are not the account's business.
    private static func event(_ kind: DomainEvent.Kind, of id: UUID, at now: Date) -> DomainEvent {
        DomainEvent(kind, userID: id, at: now, source: .none)
    }

    private func refuseSelf(_ id: UUID, _ actor: OperatorActor) throws {
        if actor.accountID == id { throw APIError.cannotActOnSelf }
    }
}

/// One account as the account page shows it.
package struct AdminAccount: Sendable {
    package let row: AdminUserRow
    /// Live sessions, newest first.
    package let sessions: [SessionRecord]
    /// Oldest first.
    package let passkeys: [PasskeyRecord]
    /// The newest ``eventCount`` security events, newest first.
    package let events: [SecurityEventRecord]

    package static let eventCount = 20
}
