import AccountAPI
import AccountCore
import Foundation
import HTTPServer

extension SessionRoutes {
    /// `POST /auth/login` by `username`, `email` or `login` (either one) and `password`.
    ///
    /// An unknown account costs one hash too and gets the same 401 as a wrong password.
    /// `email_not_verified` comes only after a correct password. An account with a second factor
    /// gets `403 mfa_required` with an `mfa_token` instead of a session. What is checked, and in
    /// which order: ``LoginOperations/logIn(_:byEmail:password:caller:)``.
    func logIn(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(LoginRequest.self)
        let identifiers = [("username", body.username), ("email", body.email), ("login", body.login)]
            .compactMap { name, value in value.map { (name, $0) } }
        var errors = FieldErrors()
        if identifiers.isEmpty || identifiers.allSatisfy({ $0.1.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
            errors.add(.required, to: identifiers.first?.0 ?? "login")
        }
        if (body.password ?? "").isEmpty { errors.add(.required, to: "password") }
        guard errors.isEmpty, let password = body.password else { throw APIError.validation(errors) }
        guard identifiers.count == 1, let (field, identifier) = identifiers.first else {
            throw APIError.invalidRequest(LocalizedText(
                en: "Send exactly one of username, email or login.", ko: "username, email, login 중 하나만 보내 주세요."))
        }

        // Normalized first: a full-width `＠` is an `@` too.
        let byEmail = field == "email" || (field == "login" && EmailRule.normalize(identifier).contains("@"))
        switch try await operations.logIn(identifier, byEmail: byEmail, password: password, caller: context.caller) {
        case .signedIn(let pair): return .tokenPair(pair)
        case .secondFactorRequired(let challenge): throw APIError.mfaRequired(challenge)
        }
    }

    private var operations: LoginOperations { services.loginOperations }
}
