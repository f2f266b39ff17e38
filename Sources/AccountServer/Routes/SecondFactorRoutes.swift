import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer

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
        switch try await operations.enrol(by: context.caller, proof: body) {
        case .started(let secret, let otpauthURI): return try .json(TOTPEnrollment(secret: Base32.encode(secret), otpauthURI: otpauthURI))
        }
    }

    /// `POST /auth/mfa/totp/confirm`: the app's current code turns the factor on. The reply has
    /// the recovery codes (shown once); every other session ends and the owner gets a notice.
    func confirm(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(TOTPConfirmRequest.self)
        let codeErrors = body.code.map(CodeRule.validate) ?? [.required]
        guard codeErrors.isEmpty, let rawCode = body.code else { throw APIError.validation("code", codeErrors) }
        switch try await operations.confirm(code: CodeRule.normalize(rawCode), by: context.caller) {
        case .confirmed(let codes): return try .json(RecoveryCodes(recoveryCodes: codes))
        }
    }

    /// `POST /auth/mfa/recovery-codes`: with the step-up proof (an authenticator code always), a
    /// new set of recovery codes; the old set stops working.
    func replaceRecoveryCodes(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(RecoveryCodesRequest.self)
        switch try await operations.replaceRecoveryCodes(by: context.caller, proof: body) {
        case .replaced(let codes): return try .json(RecoveryCodes(recoveryCodes: codes))
        }
    }

    /// `DELETE /auth/mfa/totp`: with the step-up proof (a code or recovery code always), the second
    /// factor is off (its recovery codes with it); every other session ends and the owner gets a notice.
    func disable(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(TOTPDisableRequest.self)
        switch try await operations.disable(by: context.caller, proof: body) {
        case .disabled: return .noContent
        }
    }

    private var operations: SecondFactorOperations { services.secondFactorOperations }

}
