import AccountAPI
import AccountCore
import AccountStore
import HTTPServer

extension SignUpRoutes {
    /// `POST /auth/signup`, both flows: without a token a pending sign-up holds the nickname and a
    /// code is mailed (202; the account is made when the code is verified); with an
    /// `email_verification_token` the account starts verified and is signed in (201).
    ///
    /// Without a token, a taken address is handled exactly like a free one: the password is hashed,
    /// the nickname held, the code cooldown started and a message mailed (a notice to the owner
    /// instead of a code), so neither the reply, its time nor any later request tells them apart.
    /// The reply's `signup_token` names this pending sign-up (``PendingSignUps/signUpToken(emailKey:passwordHash:)``):
    /// verifying with it, a newer sign-up of the address by someone else cannot become this
    /// address's account or sign this device in to it. The sign-up keeps its client's fingerprint
    /// (User-Agent and address), so one that replaced another client's is contested and completes
    /// only with its token (``PendingSignUps/holdSignUp(_:now:in:)``). The code's mail names the
    /// nickname being signed up, so the mailbox's owner can tell a stranger's sign-up from theirs.
    /// With `--allow-unverified-login` a free address gets its unverified account at once instead,
    /// so that it can log in; there a login after sign-up does tell a taken address from a free one.
    func signUp(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(SignUpRequest.self)
        var errors = SignUpRules.validate(
            username: body.username, email: body.email, password: body.password,
            passwordConfirmation: body.passwordConfirmation, mbti: body.mbti)
        if let name = body.username, errors["username"].isEmpty {
            errors.add(contentsOf: try services.nicknames.serverErrors(name), to: "username")
        }
        guard errors.isEmpty, let rawUsername = body.username, let rawEmail = body.email,
            let password = body.password, let mbti = body.mbti.flatMap(MBTI.init(parsing:))
        else { throw APIError.validation(errors) }

        let email = EmailRule.normalize(rawEmail)
        let request = SignUpOperations.Request(
            username: UsernameRule.normalize(rawUsername), email: email, password: password, mbti: mbti,
            emailVerificationToken: body.emailVerificationToken)
        switch try await operations.signUp(request, by: context.caller) {
        case .pending(let token):
            return try .json(SignUpAccepted(email: email, expiresIn: services.configuration.codeTTL, signUpToken: token), status: 202)
        case .signedIn(let pair): return .tokenPair(pair, status: 201)
        }
    }

    private var operations: SignUpOperations { services.signUpOperations }
}
