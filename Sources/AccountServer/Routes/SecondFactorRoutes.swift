import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Mailer

/// The second factor: `POST /auth/mfa/totp` and `/auth/mfa/totp/confirm` (enrolling an
/// authenticator app), `POST /auth/mfa/verify` (a login's second step), `POST
/// /auth/mfa/recovery-codes` (a new set) and `DELETE /auth/mfa/totp` (turning it off).
///
/// Every check of a code counts where a thief would guess: the login step and every change that
/// needs the factor go through the account's login back-off (wrong codes and wrong passwords
/// count together), an authenticator code is accepted once, and each change commits with the
/// proof it spent.
struct SecondFactorRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.enrollTOTP, in: sets.signedIn, enroll)
        router.add(.confirmTOTP, in: sets.signedIn, confirm)
        router.add(.disableTOTP, in: sets.signedIn, disable)
        router.add(.verifySecondFactor, in: sets.signIn, verify)
        router.add(.replaceRecoveryCodes, in: sets.signedIn, replaceRecoveryCodes)
    }

    /// `POST /auth/mfa/totp`: with the step-up proof, a new secret for an authenticator app.
    /// Nothing changes for login until it is confirmed; a new call replaces an unconfirmed secret.
    func enroll(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(TOTPEnrollRequest.self)
        guard !context.user.totpEnabled else { throw APIError.mfaAlreadyEnabled }
        var errors = FieldErrors()
        let stepUp = try await services.stepUp(body, for: .enableSecondFactor, context.caller, into: &errors)
        guard errors.isEmpty, let stepUp else { throw APIError.validation(errors) }
        let accepted = try await services.check(stepUp, context.caller)
        let factors = services.secondFactor
        let secret = factors.newSecret()
        let factor = TOTPFactorRecord(userID: context.userID, sealedSecret: factors.seal(secret, userID: context.userID), createdAt: context.now)
        let stored = try await services.write(after: accepted, context.caller) { tx in try tx.upsertPendingTOTP(factor) }
        guard stored else { throw APIError.mfaAlreadyEnabled }
        return try .json(TOTPEnrollment(secret: Base32.encode(secret), otpauthURI: factors.otpauthURI(secret: secret, nickname: context.user.username)))
    }

    /// What confirming an enrolment came to.
    private enum Confirmation: Sendable, Equatable {
        case confirmed(recoveryCodes: [String])
        case wrongCode
        case notStarted
        case alreadyOn
    }

    /// `POST /auth/mfa/totp/confirm`: the app's current code turns the factor on. The reply has
    /// the recovery codes (shown once); every other session ends and the owner gets a notice.
    ///
    /// The code is checked under the account's back-off, like every code: the try is counted
    /// first (`429 rate_limited` during a back-off) and a wrong code confirms the failure.
    func confirm(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(TOTPConfirmRequest.self)
        let codeErrors = body.code.map(CodeRule.validate) ?? [.required]
        guard codeErrors.isEmpty, let rawCode = body.code else { throw APIError.validation("code", codeErrors) }
        let code = CodeRule.normalize(rawCode)
        let (user, sessionID, now) = (context.user, context.sessionID, context.now)
        let (services, factors, throttle) = (self.services, services.secondFactor, services.throttle)
        let key = LoginThrottle.key(userID: user.id)
        if let retryAfter = try await throttle.reserveLoginTry(key: key, now: now) {
            context.audit(.loginBackoff, ["via": "mfa_confirm"])
            throw APIError.rateLimited(retryAfter: retryAfter)
        }
        let outcome = try await services.store.write { tx -> Confirmation in
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
            try services.recordChange(.secondFactorEnabled, .mfaEnabled, of: user, context.caller, in: tx)
            try context.origin.recordSessionsEnded(ended, reason: .mfaEnabled, userID: user.id, at: now, in: tx)
            return .confirmed(recoveryCodes: codes)
        }
        switch outcome {
        case .confirmed(let codes):
            context.audit(.secondFactorEnabled)
            return try .json(RecoveryCodes(recoveryCodes: codes))
        case .wrongCode:
            context.audit(.secondFactorFailed, ["via": "mfa_confirm"])
            try await throttle.refuseWrongCode(userID: user.id, now: now, origin: context.origin, via: "mfa_confirm")
        case .notStarted, .alreadyOn:
            try await services.store.write { try throttle.refundLoginTry(key: key, now: now, in: $0) }
            throw outcome == .notStarted ? APIError.mfaNotEnabled : APIError.mfaAlreadyEnabled
        }
    }

    /// `POST /auth/mfa/recovery-codes`: with the step-up proof (an authenticator code always), a
    /// new set of recovery codes; the old set stops working.
    func replaceRecoveryCodes(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(RecoveryCodesRequest.self)
        guard context.user.totpEnabled else { throw APIError.mfaNotEnabled }
        var errors = FieldErrors()
        let stepUp = try await services.stepUp(body, for: .replaceRecoveryCodes, context.caller, into: &errors)
        guard errors.isEmpty, let stepUp else { throw APIError.validation(errors) }
        let accepted = try await services.check(stepUp, context.caller)
        let (services, user) = (self.services, context.user)
        let codes = try await services.write(after: accepted, context.caller) { tx -> [String] in
            let codes = try services.secondFactor.replaceRecoveryCodes(userID: user.id, in: tx)
            try services.recordChange(.recoveryCodesReplaced, .recoveryCodesReplaced, of: user, context.caller, in: tx)
            return codes
        }
        context.audit(.recoveryCodesReplaced)
        return try .json(RecoveryCodes(recoveryCodes: codes))
    }

    /// `DELETE /auth/mfa/totp`: with the step-up proof (a code or recovery code always), the second
    /// factor is off (its recovery codes with it); every other session ends and the owner gets a notice.
    func disable(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(TOTPDisableRequest.self)
        guard context.user.totpEnabled else { throw APIError.mfaNotEnabled }
        var errors = FieldErrors()
        let stepUp = try await services.stepUp(body, for: .disableSecondFactor, context.caller, into: &errors)
        guard errors.isEmpty, let stepUp else { throw APIError.validation(errors) }
        let accepted = try await services.check(stepUp, context.caller)
        let (services, user, sessionID, now) = (self.services, context.user, context.sessionID, context.now)
        try await services.write(after: accepted, context.caller) { tx in
            try tx.disableTOTP(userID: user.id)
            let ended = try tx.revokeSessions(userID: user.id, except: sessionID, at: now)
            try tx.deleteSecondFactorChallenges(userID: user.id, expiredBefore: nil)
            try services.recordChange(.secondFactorDisabled, .mfaDisabled, of: user, context.caller, in: tx)
            try context.origin.recordSessionsEnded(ended, reason: .mfaDisabled, userID: user.id, at: now, in: tx)
        }
        context.audit(.secondFactorDisabled)
        return .noContent
    }
}
