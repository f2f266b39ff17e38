import AccountAPI
import AccountCore
import HTTPServer

/// Passwords: `POST /auth/password/change`, `/auth/password/reset` and `/auth/password/reset/confirm`.
struct PasswordRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.changePassword, in: sets.signedIn, changePassword)
        router.add(.requestPasswordReset, in: sets.account, requestPasswordReset)
        router.add(.confirmPasswordReset, in: sets.account, confirmPasswordReset)
    }

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
        switch try await operations.change(to: new, of: context.caller, after: accepted) {
        case .changed: return .noContent
        }
    }

    /// `POST /auth/password/reset`: mails a reset code when the address has an account; answers
    /// 202 either way, and counts the resend cooldown either way, so the reply tells nothing.
    func requestPasswordReset(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(PasswordResetRequest.self)
        var errors = FieldErrors()
        errors.add(contentsOf: body.email.map(EmailRule.validate) ?? [.required], to: "email")
        guard errors.isEmpty, let rawEmail = body.email else { throw APIError.validation(errors) }
        let email = EmailRule.normalize(rawEmail)
        switch try await operations.requestReset(for: email, by: context.caller) {
        case .requested: return try .json(EmailCodeSent(email: email, expiresIn: services.configuration.codeTTL), status: 202)
        }
    }

    /// `POST /auth/password/reset/confirm`: sets a new password with the mailed code
    /// (``PasswordOperations/reset(_:code:to:by:)``); every session ends (no automatic login).
    func confirmPasswordReset(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(PasswordResetConfirmRequest.self)
        var errors = FieldErrors()
        errors.add(contentsOf: body.email.map(EmailRule.validate) ?? [.required], to: "email")
        errors.add(contentsOf: body.code.map(CodeRule.validate) ?? [.required], to: "code")
        if body.newPassword == nil { errors.add(.required, to: "new_password") }
        guard errors.isEmpty, let rawEmail = body.email, let rawCode = body.code, let newPassword = body.newPassword else {
            throw APIError.validation(errors)
        }
        switch try await operations.reset(EmailRule.normalize(rawEmail), code: CodeRule.normalize(rawCode), to: newPassword, by: context.caller) {
        case .done: return .noContent
        }
    }

    private var operations: PasswordOperations { services.passwordOperations }
}
