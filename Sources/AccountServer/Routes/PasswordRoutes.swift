import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Mailer

/// Passwords: `POST /auth/password/change`, `/auth/password/reset` and `/auth/password/reset/confirm`.
struct PasswordRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.changePassword, in: sets.signedIn, changePassword)
        router.add(.requestPasswordReset, in: sets.account, requestPasswordReset)
        router.add(.confirmPasswordReset, in: sets.account, confirmPasswordReset)
    }

    /// The purpose of password-reset codes (not one a client may ask `/auth/email/code` for).
    static let resetPurpose = "reset"

    /// `POST /auth/password/change`: a new password, with the step-up proof (its password is
    /// `current_password`); every other session is revoked and the owner is mailed.
    ///
    /// The proof is checked under the account's login back-off (a stolen access token must not be
    /// a way to guess the password); a wrong password is `403 invalid_credentials`, a wrong code
    /// `400 code_invalid`.
    func changePassword(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(ChangePasswordRequest.self)
        let (services, user) = (self.services, context.user)
        var errors = FieldErrors()
        errors.add(contentsOf: body.newPassword.map { PasswordRule.validate($0, username: user.username, email: user.email) } ?? [.required], to: "new_password")
        let stepUp = try await services.stepUp(body.proof, for: .changePassword, context.caller, passwordField: "current_password", into: &errors)
        guard errors.isEmpty, let new = body.newPassword, let stepUp else { throw APIError.validation(errors) }

        let accepted = try await services.check(stepUp, context.caller)
        let hash = try await services.passwords.hash(new)
        let (sessionID, now) = (context.sessionID, context.now)
        try await services.write(after: accepted, context.caller) { tx in
            guard var account = try tx.lockUser(id: user.id) else { throw APIError.sessionRevoked }
            account.passwordHash = hash
            account.updatedAt = now
            try tx.updateUser(account)
            let ended = try tx.revokeSessions(userID: user.id, except: sessionID, at: now)
            try tx.deleteSecondFactorChallenges(userID: user.id, expiredBefore: nil)
            try services.recordChange(.passwordChanged, .passwordChanged, of: account, context.caller, in: tx)
            try context.origin.recordSessionsEnded(ended, reason: .passwordChanged, userID: user.id, at: now, in: tx)
        }
        context.audit(.passwordChanged)
        return .noContent
    }

    /// `POST /auth/password/reset`: mails a reset code when the address has an account; answers
    /// 202 either way, and counts the resend cooldown either way, so the reply tells nothing.
    func requestPasswordReset(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(PasswordResetRequest.self)
        var errors = FieldErrors()
        errors.add(contentsOf: body.email.map(EmailRule.validate) ?? [.required], to: "email")
        guard errors.isEmpty, let rawEmail = body.email else { throw APIError.validation(errors) }
        let email = EmailRule.normalize(rawEmail)
        let emailKey = EmailRule.key(email)
        let (now, language, minutes) = (context.now, context.language, services.configuration.codeTTL / 60)
        let mailed = try await services.store.write { tx -> Bool in
            let account = try tx.user(emailKey: emailKey)
            return try services.codes.issue(emailKey: emailKey, purpose: Self.resetPurpose, now: now, in: tx) { code in
                account.map { .code(MailTemplates.passwordResetCode(code, language: language, lifetimeMinutes: minutes, to: $0.email)) } ?? .none
            }
        }
        context.audit(.codeSent, ["purpose": Self.resetPurpose])
        if mailed { services.activity.count(.codesSent, at: now) }
        return try .json(EmailCodeSent(email: email, expiresIn: services.configuration.codeTTL), status: 202)
    }

    /// `POST /auth/password/reset/confirm`: sets a new password with the mailed code. Every session
    /// ends (no automatic login), and the address counts as verified since the code reached it.
    ///
    /// The code is checked first, and nothing about the address is read before it is right: a
    /// wrong code costs the same few statements and gets the same reply for a registered address
    /// as for an unknown one (whose code row, if any, holds a hash nobody knows). Only after a
    /// right code is the new password checked against the account (a refused one keeps the code,
    /// so the owner can try another) and hashed; a second transaction then spends the code.
    func confirmPasswordReset(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(PasswordResetConfirmRequest.self)
        var errors = FieldErrors()
        errors.add(contentsOf: body.email.map(EmailRule.validate) ?? [.required], to: "email")
        errors.add(contentsOf: body.code.map(CodeRule.validate) ?? [.required], to: "code")
        if body.newPassword == nil { errors.add(.required, to: "new_password") }
        guard errors.isEmpty, let rawEmail = body.email, let rawCode = body.code, let newPassword = body.newPassword else {
            throw APIError.validation(errors)
        }
        let emailKey = EmailRule.key(EmailRule.normalize(rawEmail))
        let code = CodeRule.normalize(rawCode)
        let (now, origin) = (context.now, context.origin)
        let purposes = [Self.resetPurpose]

        let checked = try await services.store.write { tx -> CodeCheck in
            try services.codes.check(code, emailKey: emailKey, purposes: purposes, now: now, in: tx, spending: false)
        }
        if let error = checked.error {
            context.audit(.codeFailed, ["purpose": Self.resetPurpose])
            throw error
        }
        // The caller has the code, so they own the address: from here on, replies may depend on the account.
        guard let account = try await services.store.read({ try $0.user(emailKey: emailKey) }) else { throw APIError.codeInvalid }
        let passwordErrors = PasswordRule.validate(newPassword, username: account.username, email: account.email)
        guard passwordErrors.isEmpty else { throw APIError.validation("new_password", passwordErrors) }
        let hash = try await services.passwords.hash(newPassword)
        let outcome = try await services.store.write { tx -> CodeCheck in
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
            try origin.record(.passwordReset, userID: user.id, at: now, in: tx)
            try origin.recordSessionsEnded(ended, reason: .passwordReset, userID: user.id, at: now, in: tx)
            return outcome
        }
        if let error = outcome.error {
            context.audit(.codeFailed, userID: account.id, ["purpose": Self.resetPurpose])
            throw error
        }
        context.audit(.passwordReset, userID: account.id)
        return .noContent
    }
}
