import AccountAPI
import AccountStore
import Foundation
import Mailer

/// Passwords: changed by the signed-in owner, or reset with a code mailed to the address.
package struct PasswordOperations {
    package let services: Services

    /// The purpose of password-reset codes (not one a client may ask `/auth/email/code` for).
    package static let resetPurpose = "reset"

    /// What a change of the password came to.
    package enum ChangeOutcome: Equatable {
        case changed
    }

    /// Sets the caller's password to `new` (its rules already checked), committed with
    /// what its accepted step-up spends: every other session is revoked, a login waiting for its second factor
    /// is dropped, and the owner is mailed. An account gone meanwhile is `401 session_revoked`.
    package func change(to new: String, of caller: SignedInCaller, after accepted: AcceptedStepUp) async throws -> ChangeOutcome {
        let hash = try await services.passwords.hash(new)
        let (services, user, sessionID, now) = (services, caller.user, caller.sessionID, caller.now)
        try await services.write(after: accepted, caller) { tx, ledger in
            guard var account = try tx.lockUser(id: user.id) else { throw APIError.sessionRevoked }
            account.passwordHash = hash
            account.updatedAt = now
            try tx.updateUser(account)
            let ended = try tx.revokeSessions(userID: user.id, except: sessionID, at: now)
            try tx.deleteSecondFactorChallenges(userID: user.id, expiredBefore: nil)
            try services.recordChange(
                .passwordChanged, caller.event(.changed(.passwordChanged, logged: .passwordChanged)), of: account, caller, in: &ledger)
            try ledger.record(caller.event(.sessionsEnded(count: ended, .passwordChanged)))
        }
        return .changed
    }

    /// What a request for a reset code came to.
    package enum ResetRequestOutcome: Equatable {
        /// Answered as sent either way: a code went out only when the address has an account.
        case requested
    }

    /// Mails a reset code to `email` (normalized) when the address has an account; counts the
    /// resend cooldown either way, so the outcome tells nothing.
    package func requestReset(for email: String, by caller: Caller) async throws -> ResetRequestOutcome {
        let emailKey = EmailRule.key(email)
        let (services, now, language, minutes) = (services, caller.now, caller.language, services.configuration.codeTTL / 60)
        let mailed = try await services.store.write { tx -> Bool in
            let account = try tx.user(emailKey: emailKey)
            return try services.codes.issue(emailKey: emailKey, purpose: Self.resetPurpose, now: now, in: tx) { code in
                account.map { .code(MailTemplates.passwordResetCode(code, language: language, lifetimeMinutes: minutes, to: $0.email)) } ?? .none
            }
        }
        services.events.record(caller.event(.codeSent(mailed: mailed), ["purpose": Self.resetPurpose]))
        return .requested
    }

    /// What a reset with its code came to.
    package enum ResetOutcome: Equatable {
        /// The password is set, every session ended and the address verified.
        case done
    }

    /// Sets the password of the account of `email` (normalized) to `newPassword` with the mailed
    /// `code` (normalized). Every session ends (no automatic login), and the address counts as
    /// verified since the code reached it.
    ///
    /// The code is checked first, and nothing about the address is read before it is right: a
    /// wrong code costs the same few statements and gets the same refusal for a registered address
    /// as for an unknown one (whose code row, if any, holds a hash nobody knows). Only after a
    /// right code is the new password checked against the account (a refused one keeps the code,
    /// so the owner can try another) and hashed; a second transaction then spends the code.
    package func reset(_ email: String, code: String, to newPassword: String, by caller: Caller) async throws -> ResetOutcome {
        let emailKey = EmailRule.key(email)
        let (services, now) = (services, caller.now)
        let purposes = [Self.resetPurpose]

        let checked = try await services.store.write { tx -> CodeCheck in
            try services.codes.check(code, emailKey: emailKey, purposes: purposes, now: now, in: tx, spending: false)
        }
        if let error = checked.error {
            services.events.record(caller.event(.logged(.codeFailed), ["purpose": Self.resetPurpose]))
            throw error
        }
        // The caller has the code, so they own the address: from here on, refusals may depend on the account.
        guard let account = try await services.store.read({ try $0.user(emailKey: emailKey) }) else { throw APIError.codeInvalid }
        let passwordErrors = PasswordRule.validate(newPassword, username: account.username, email: account.email)
        guard passwordErrors.isEmpty else { throw APIError.validation("new_password", passwordErrors) }
        let hash = try await services.passwords.hash(newPassword)
        let outcome = try await services.events.write { tx, ledger -> CodeCheck in
            let outcome = try services.codes.check(code, emailKey: emailKey, purposes: purposes, now: now, in: tx)
            guard case .verified = outcome, var user = try tx.lockUser(id: account.id) else { return outcome }
            user.passwordHash = hash
            user.emailVerified = true
            user.updatedAt = now
            try tx.updateUser(user)
            let ended = try tx.revokeSessions(userID: user.id, except: nil, at: now)
            // A login waiting for its second factor was made with the old password.
            try tx.deleteSecondFactorChallenges(userID: user.id, expiredBefore: nil)
            try services.throttle.clear(key: LoginThrottle.key(userID: user.id), in: tx)
            try ledger.record(caller.event(.changed(.passwordReset, logged: .passwordReset), userID: user.id))
            try ledger.record(caller.event(.sessionsEnded(count: ended, .passwordReset), userID: user.id))
            return outcome
        }
        if let error = outcome.error {
            services.events.record(caller.event(.logged(.codeFailed), userID: account.id, ["purpose": Self.resetPurpose]))
            throw error
        }
        return .done
    }
}
