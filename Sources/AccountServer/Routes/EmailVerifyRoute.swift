import AccountAPI
import AccountCore
import AccountStore
import HTTPServer

extension SignUpRoutes {
    /// `POST /auth/email/verify`: checks the code mailed to `email` (for sign-up or verification).
    ///
    /// On success the code is spent; for a `verify` code, the address's pending sign-up becomes a
    /// verified account (``PendingSignUps/completePendingSignUp(emailKey:now:in:)``), or an unverified account
    /// with this address becomes verified; and a single-use `email_verification_token` (30
    /// minutes, this address only) is returned. A wrong code counts one try; after the last
    /// allowed try the code is spent (`too_many_attempts`).
    ///
    /// With `sign_in: true`, a code that makes the account of a pending sign-up also opens its
    /// session, in the same transaction, when ``PendingSignUps/signInAtVerify(_:signedUpAt:now:in:)`` allows it
    /// (within the window after the sign-up, no login back-off): the reply carries the login's
    /// token pair as `session`. Nothing about the address is read before the code is right, so
    /// a wrong code gets the refusal a request without `sign_in` gets.
    ///
    /// The `signup_token` of the sign-up being completed binds the code to it. A token, sent with
    /// or without `sign_in`, is checked once the code is right: one that does not name the
    /// address's current pending sign-up (a newer sign-up, maybe a stranger's, replaced it) makes
    /// nothing and opens nothing, and the right code is answered `409 signup_superseded`. Without
    /// a token the same happens when the pending sign-up is contested (it replaced another
    /// client's); an uncontested one completes (``PendingSignUps/dropSupersededSignUp(emailKey:token:in:)``).
    func verifyEmail(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(EmailVerifyRequest.self)
        var errors = FieldErrors()
        errors.add(contentsOf: body.email.map(EmailRule.validate) ?? [.required], to: "email")
        errors.add(contentsOf: body.code.map(CodeRule.validate) ?? [.required], to: "code")
        errors.add(contentsOf: PendingSignUps.signUpTokenErrors(body.signUpToken), to: "signup_token")
        guard errors.isEmpty, let rawEmail = body.email, let rawCode = body.code else { throw APIError.validation(errors) }

        let email = EmailRule.normalize(rawEmail)
        let request = EmailVerificationOperations.Request(
            email: email, code: CodeRule.normalize(rawCode), signUpToken: body.signUpToken, signIn: body.signIn == true)
        switch try await operations.verify(request, by: context.caller) {
        case .verified(let token): return try .json(EmailVerified(email: email, emailVerificationToken: token))
        case .verifiedAndSignedIn(let token, let pair): return try .json(EmailVerified(email: email, emailVerificationToken: token, session: pair))
        }
    }

    private var operations: EmailVerificationOperations { services.emailVerificationOperations }
}
