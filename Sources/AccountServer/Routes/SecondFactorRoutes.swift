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

    func register(on router: inout Router) {
        router.add("POST", "/auth/mfa/totp", services.authenticator.require(enroll))
        router.add("POST", "/auth/mfa/totp/confirm", services.authenticator.require(confirm))
        router.add("DELETE", "/auth/mfa/totp", services.authenticator.require(disable))
        router.add("POST", "/auth/mfa/verify", services.activity.countingLogins(verify))
        router.add("POST", "/auth/mfa/recovery-codes", services.authenticator.require(replaceRecoveryCodes))
    }

    /// `POST /auth/mfa/totp`: with the password, a new secret for an authenticator app. Nothing
    /// changes for login until it is confirmed; a new call replaces an unconfirmed secret.
    func enroll(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(TOTPEnrollRequest.self)
        var errors = FieldErrors()
        let callersProof = CallersProof.parse(
            password: body.password, appleIdentityToken: body.appleIdentityToken, appleNonce: body.appleNonce,
            passkeyAssertion: body.passkeyAssertion, for: context.user, into: &errors)
        guard errors.isEmpty, let callersProof else { throw APIError.validation(errors) }
        guard !context.user.totpEnabled else { throw APIError.mfaAlreadyEnabled }
        let accepted = try await services.checkCallersProof(callersProof, context, via: "mfa_enroll")
        let factors = services.secondFactor
        let secret = factors.newSecret()
        let factor = TOTPFactorRecord(userID: context.userID, sealedSecret: factors.seal(secret, userID: context.userID), createdAt: context.now)
        let (throttle, userID) = (services.throttle, context.userID)
        let stored = try await services.write(spending: accepted, context, via: "mfa_enroll") { tx in
            try throttle.clear(key: LoginThrottle.key(userID: userID), in: tx)
            return try tx.upsertPendingTOTP(factor)
        }
        guard stored else { throw APIError.mfaAlreadyEnabled }
        return try .json(TOTPEnrollment(secret: Base32.encode(secret), otpauthURI: factors.otpauthURI(secret: secret, nickname: context.user.username)))
    }

    /// What confirming an enrolment came to.
    private enum Confirmation: Sendable {
        case confirmed(recoveryCodes: [String])
        case wrongCode
        case notStarted
        case alreadyOn
    }

    /// `POST /auth/mfa/totp/confirm`: the app's current code turns the factor on. The reply has
    /// the recovery codes (shown once); every other session ends and the owner gets a notice.
    func confirm(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(TOTPConfirmRequest.self)
        let codeErrors = body.code.map(CodeRule.validate) ?? [.required]
        guard codeErrors.isEmpty, let rawCode = body.code else { throw APIError.validation("code", codeErrors) }
        let code = CodeRule.normalize(rawCode)
        let (user, sessionID, now, language, origin) = (context.user, context.sessionID, context.now, context.language, context.origin)
        let (factors, outbox) = (services.secondFactor, services.outbox)
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
            try outbox.queueNotice(MailTemplates.secondFactor(.enabled, language: language, to: user.email), in: tx, now: now)
            try origin.record(.mfaEnabled, userID: user.id, at: now, in: tx)
            try origin.recordSessionsEnded(ended, reason: .mfaEnabled, userID: user.id, at: now, in: tx)
            return .confirmed(recoveryCodes: codes)
        }
        switch outcome {
        case .confirmed(let codes):
            context.audit(.secondFactorEnabled)
            services.mail.poke()
            return try .json(RecoveryCodes(recoveryCodes: codes))
        case .wrongCode:
            context.audit(.secondFactorFailed, ["via": "mfa_confirm"])
            throw APIError.secondFactorInvalid
        case .notStarted: throw APIError.mfaNotEnabled
        case .alreadyOn: throw APIError.mfaAlreadyEnabled
        }
    }

    /// `POST /auth/mfa/recovery-codes`: with the password and an authenticator code, a new set of
    /// recovery codes; the old set stops working.
    func replaceRecoveryCodes(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(RecoveryCodesRequest.self)
        var errors = FieldErrors()
        let callersProof = CallersProof.parse(
            password: body.password, appleIdentityToken: body.appleIdentityToken, appleNonce: body.appleNonce,
            passkeyAssertion: body.passkeyAssertion, for: context.user, into: &errors)
        let codeErrors = body.code.map(CodeRule.validate) ?? [.required]
        errors.add(contentsOf: codeErrors, to: "code")
        guard errors.isEmpty, let callersProof, let code = body.code else { throw APIError.validation(errors) }
        guard context.user.totpEnabled else { throw APIError.mfaNotEnabled }
        let accepted = try await services.checkCallersProof(callersProof, context, via: "mfa_recovery_codes")
        let (user, now, language, origin) = (context.user, context.now, context.language, context.origin)
        let (factors, outbox, throttle) = (services.secondFactor, services.outbox, services.throttle)
        let codes = try await services.write(spending: accepted, context, via: "mfa_recovery_codes") { tx -> [String]? in
            guard try factors.check(.code(CodeRule.normalize(code)), user: user, language: language, now: now, origin: origin, in: tx) == .totp else { return nil }
            let codes = try factors.replaceRecoveryCodes(userID: user.id, in: tx)
            try throttle.clear(key: LoginThrottle.key(userID: user.id), in: tx)
            try outbox.queueNotice(MailTemplates.secondFactor(.recoveryCodesReplaced, language: language, to: user.email), in: tx, now: now)
            try origin.record(.recoveryCodesReplaced, userID: user.id, at: now, in: tx)
            return codes
        }
        guard let codes else {
            context.audit(.secondFactorFailed, ["via": "mfa_recovery_codes"])
            try await services.throttle.refuseWrongCode(userID: user.id, now: now, origin: context.origin, via: "mfa_recovery_codes")
        }
        context.audit(.recoveryCodesReplaced)
        services.mail.poke()
        return try .json(RecoveryCodes(recoveryCodes: codes))
    }

    /// `DELETE /auth/mfa/totp`: with the password and a code or recovery code, the second factor
    /// is off (its recovery codes with it); every other session ends and the owner gets a notice.
    func disable(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(TOTPDisableRequest.self)
        var errors = FieldErrors()
        let callersProof = CallersProof.parse(
            password: body.password, appleIdentityToken: body.appleIdentityToken, appleNonce: body.appleNonce,
            passkeyAssertion: body.passkeyAssertion, for: context.user, into: &errors)
        let proof = try SecondFactorProof.parse(code: body.code, recoveryCode: body.recoveryCode, into: &errors)
        guard errors.isEmpty, let callersProof, let proof else { throw APIError.validation(errors) }
        guard context.user.totpEnabled else { throw APIError.mfaNotEnabled }
        let accepted = try await services.checkCallersProof(callersProof, context, via: "mfa_disable")
        let (user, sessionID, now, language, origin) = (context.user, context.sessionID, context.now, context.language, context.origin)
        let (factors, outbox, throttle) = (services.secondFactor, services.outbox, services.throttle)
        let disabled = try await services.write(spending: accepted, context, via: "mfa_disable") { tx -> Bool in
            guard try factors.check(proof, user: user, language: language, now: now, notify: false, origin: origin, in: tx) != .wrong else { return false }
            try tx.disableTOTP(userID: user.id)
            let ended = try tx.revokeSessions(userID: user.id, except: sessionID, at: now)
            try origin.record(.mfaDisabled, userID: user.id, at: now, in: tx)
            try origin.recordSessionsEnded(ended, reason: .mfaDisabled, userID: user.id, at: now, in: tx)
            try tx.deleteSecondFactorChallenges(userID: user.id, expiredBefore: nil)
            try throttle.clear(key: LoginThrottle.key(userID: user.id), in: tx)
            try outbox.queueNotice(MailTemplates.secondFactor(.disabled, language: language, to: user.email), in: tx, now: now)
            return true
        }
        guard disabled else {
            context.audit(.secondFactorFailed, ["via": "mfa_disable"])
            try await services.throttle.refuseWrongCode(userID: user.id, now: now, origin: context.origin, via: "mfa_disable")
        }
        context.audit(.secondFactorDisabled)
        services.mail.poke()
        return .noContent
    }
}
