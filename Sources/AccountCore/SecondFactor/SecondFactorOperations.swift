import AccountAPI
import AccountStore
import Foundation

/// The signed-in account's second factor: an authenticator app enrolled, confirmed and turned
/// off, and its recovery codes replaced.
///
/// Every check of a code counts where a thief would guess: every change that needs the factor
/// goes through the account's login back-off (wrong codes and wrong passwords count together),
/// an authenticator code is accepted once, and each change commits with the proof it spent.
package struct SecondFactorOperations {
    package let services: Services

    /// What enrolling came to.
    package enum EnrolOutcome: Sendable {
        /// A new secret waits for its first code; nothing changes for login until then.
        case started(secret: [UInt8], otpauthURI: String)
    }

    /// With the step-up `proof`, a new secret for an authenticator app; a new call replaces an
    /// unconfirmed secret.
    /// - Throws: `409 mfa_already_enabled` when the factor is on (before the proof is read, and
    ///   again when it came on meanwhile); the step-up's refusals.
    package func enrol(by caller: SignedInCaller, proof: StepUpProof) async throws -> EnrolOutcome {
        guard !caller.user.totpEnabled else { throw APIError.mfaAlreadyEnabled }
        let accepted = try await services.accepted(proof, for: .enableSecondFactor, caller)
        let factors = services.secondFactor
        let secret = factors.newSecret()
        let factor = TOTPFactorRecord(userID: caller.userID, sealedSecret: factors.seal(secret, userID: caller.userID), createdAt: caller.now)
        let stored = try await services.write(after: accepted, caller) { tx, _ in try tx.upsertPendingTOTP(factor) }
        guard stored else { throw APIError.mfaAlreadyEnabled }
        return .started(secret: secret, otpauthURI: factors.otpauthURI(secret: secret, nickname: caller.user.username))
    }

    /// What confirming an enrolment came to.
    package enum ConfirmOutcome: Sendable, Equatable {
        /// The factor is on; the recovery codes are shown once.
        case confirmed(recoveryCodes: [String])
    }

    /// What the confirming transaction found.
    private enum Confirmation: Sendable, Equatable {
        case confirmed(recoveryCodes: [String])
        case wrongCode
        case notStarted
        case alreadyOn
    }

    /// The app's current `code` (normalized) turns the factor on, with a new set of recovery
    /// codes; every other session ends and the owner gets a notice.
    ///
    /// The code is checked under the account's back-off, like every code: the try is counted
    /// first (`429 rate_limited` during a back-off) and a wrong code confirms the failure
    /// (`400 code_invalid`). No enrolment is `409 mfa_not_enabled`, a factor already on
    /// `409 mfa_already_enabled`; both give the try back.
    package func confirm(code: String, by caller: SignedInCaller) async throws -> ConfirmOutcome {
        let (user, sessionID, now) = (caller.user, caller.sessionID, caller.now)
        let (factors, throttle) = (services.secondFactor, services.throttle)
        let key = LoginThrottle.key(userID: user.id)
        if let retryAfter = try await throttle.reserveLoginTry(key: key, now: now) {
            services.events.record(caller.event(.logged(.loginBackoff), ["via": "mfa_confirm"]))
            throw APIError.rateLimited(retryAfter: retryAfter)
        }
        let outcome = try await services.events.write { tx, ledger -> Confirmation in
            guard let factor = try tx.totpFactor(userID: user.id) else { return .notStarted }
            guard factor.confirmedAt == nil else { return .alreadyOn }
            guard let step = TOTP.matchingStep(of: code, secret: try factors.open(factor), now: now, after: factor.lastStep) else {
                return .wrongCode
            }
            guard try tx.confirmTOTP(userID: user.id, at: now, step: step) else { return .alreadyOn }
            let codes = try factors.replaceRecoveryCodes(userID: user.id, in: tx)
            let ended = try tx.revokeSessions(userID: user.id, except: sessionID, at: now)
            try tx.deleteSecondFactorChallenges(userID: user.id, expiredBefore: nil)
            try throttle.clear(key: key, in: tx)
            try services.recordChange(
                .secondFactorEnabled, caller.event(.changed(.mfaEnabled, logged: .secondFactorEnabled)), of: caller.user, caller, in: &ledger)
            try ledger.record(caller.event(.sessionsEnded(count: ended, .mfaEnabled)))
            return .confirmed(recoveryCodes: codes)
        }
        switch outcome {
        case .confirmed(let codes):
            return .confirmed(recoveryCodes: codes)
        case .wrongCode:
            try await throttle.refuseWrongCode(userID: user.id, now: now, source: caller.caller.source, via: "mfa_confirm")
        case .notStarted, .alreadyOn:
            try await services.store.write { try throttle.refundLoginTry(key: key, now: now, in: $0) }
            throw outcome == .notStarted ? APIError.mfaNotEnabled : APIError.mfaAlreadyEnabled
        }
    }

    /// What replacing the recovery codes came to.
    package enum ReplaceCodesOutcome: Sendable, Equatable {
        /// The new set, shown once; the old set no longer works.
        case replaced(recoveryCodes: [String])
    }

    /// With the step-up `proof` (an authenticator code always), a new set of recovery codes.
    /// - Throws: `409 mfa_not_enabled` when the factor is off; the step-up's refusals.
    package func replaceRecoveryCodes(by caller: SignedInCaller, proof: StepUpProof) async throws -> ReplaceCodesOutcome {
        guard caller.user.totpEnabled else { throw APIError.mfaNotEnabled }
        let accepted = try await services.accepted(proof, for: .replaceRecoveryCodes, caller)
        let (factors, userID) = (services.secondFactor, caller.userID)
        let codes = try await services.write(after: accepted, caller) { tx, ledger -> [String] in
            let codes = try factors.replaceRecoveryCodes(userID: userID, in: tx)
            try services.recordChange(
                .recoveryCodesReplaced, caller.event(.changed(.recoveryCodesReplaced, logged: .recoveryCodesReplaced)), of: caller.user,
                caller, in: &ledger)
            return codes
        }
        return .replaced(recoveryCodes: codes)
    }

    /// What turning the factor off came to.
    package enum DisableOutcome: Sendable, Equatable {
        /// The factor and its recovery codes are gone.
        case disabled
    }

    /// With the step-up `proof` (a code or recovery code always), the second factor is off (its
    /// recovery codes with it); every other session ends and the owner gets a notice.
    /// - Throws: `409 mfa_not_enabled` when the factor is off; the step-up's refusals.
    package func disable(by caller: SignedInCaller, proof: StepUpProof) async throws -> DisableOutcome {
        guard caller.user.totpEnabled else { throw APIError.mfaNotEnabled }
        let accepted = try await services.accepted(proof, for: .disableSecondFactor, caller)
        let (userID, sessionID, now) = (caller.userID, caller.sessionID, caller.now)
        try await services.write(after: accepted, caller) { tx, ledger in
            try tx.disableTOTP(userID: userID)
            let ended = try tx.revokeSessions(userID: userID, except: sessionID, at: now)
            try tx.deleteSecondFactorChallenges(userID: userID, expiredBefore: nil)
            try services.recordChange(
                .secondFactorDisabled, caller.event(.changed(.mfaDisabled, logged: .secondFactorDisabled)), of: caller.user, caller, in: &ledger)
            try ledger.record(caller.event(.sessionsEnded(count: ended, .mfaDisabled)))
        }
        return .disabled
    }
}
