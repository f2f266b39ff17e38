import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer

extension SignUpRoutes {
    /// `POST /auth/email/code`: mails a 6-digit code for `signup` (address not yet used) or
    /// `verify` (a pending sign-up, or an unverified account). Answers the same 202 whatever the
    /// address: a taken address gets a "you already have an account" notice instead (for
    /// `signup`), one with nothing to verify gets nothing (for `verify`); all count for the resend
    /// cooldown, and every message goes through the address's mail budget.
    func requestEmailCode(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(EmailCodeRequest.self)
        var errors = FieldErrors()
        errors.add(contentsOf: body.email.map(EmailRule.validate) ?? [.required], to: "email")
        let purpose = body.purpose.flatMap(CodePurpose.init(rawValue:))
        if (body.purpose ?? "").isEmpty {
            errors.add(.required, to: "purpose")
        } else if purpose == nil {
            errors.add(.invalidChoice, to: "purpose")
        }
        guard errors.isEmpty, let rawEmail = body.email, let purpose else { throw APIError.validation(errors) }

        let email = EmailRule.normalize(rawEmail)
        switch try await operations.requestCode(for: purpose, to: email, by: context.caller) {
        case .requested: return try .json(EmailCodeSent(email: email, expiresIn: services.configuration.codeTTL), status: 202)
        }
    }

    private var operations: EmailCodeOperations { services.emailCodeOperations }
}
