import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Sodium

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
        let emailKey = EmailRule.key(email)
        let code = CodeRule.normalize(rawCode)
        let now = context.now
        let token = OpaqueToken.random().text
        let tokenHash = Digest.sha256(Array(token.utf8))
        let tokenTTL = TimeInterval(services.configuration.verificationTokenTTL)
        let signIn = body.signIn == true
        let signUpToken = body.signUpToken
        let (userAgent, origin) = (context.request.headers["User-Agent"], context.origin)

        let (outcome, completion): (CodeCheck, Completion)
        do {
            (outcome, completion) = try await services.store.write { tx -> (CodeCheck, Completion) in
                let outcome = try services.codes.check(code, emailKey: emailKey, purposes: CodePurpose.allCases.map(\.rawValue), now: now, in: tx)
                guard case .verified(let purpose) = outcome else { return (outcome, .addressOnly) }
                var completed: CompletedVerification?
                if purpose == CodePurpose.verify.rawValue {
                    // Committed with the spent code; no proof of the address is handed out.
                    if try services.signUps.dropSupersededSignUp(emailKey: emailKey, token: signUpToken, in: tx) {
                        return (outcome, .superseded)
                    }
                    if let found = try tx.user(emailKey: emailKey), var account = try tx.lockUser(id: found.id), !account.emailVerified {
                        account.emailVerified = true
                        account.updatedAt = now
                        try tx.updateUser(account)
                    }
                    if let made = try services.signUps.completePendingSignUp(emailKey: emailKey, now: now, in: tx) {
                        let decision = signIn ? try services.signUps.signInAtVerify(made.user, signedUpAt: made.signedUpAt, now: now, in: tx) : nil
                        // The same session a login opens, with this request's User-Agent, of the
                        // account as locked now (it may have been made by a login before).
                        var session: (SessionRecord, RefreshToken)?
                        if decision == .signedIn {
                            guard let account = try tx.lockUser(id: made.user.id) else { throw APIError.invalidCredentials }
                            session = try services.sessions.openSession(
                                for: account, userAgent: userAgent, origin: origin, method: .emailCode, now: now, in: tx)
                        }
                        // The account as stored (times to the millisecond), so the reply's user is
                        // the one `GET /auth/me` shows, to the second.
                        let user = try tx.user(id: made.user.id) ?? made.user
                        completed = CompletedVerification(user: user, signIn: decision, session: session)
                    }
                }
                try tx.insertVerificationToken(VerificationTokenRecord(hash: tokenHash, emailKey: emailKey, expiresAt: now.addingTimeInterval(tokenTTL)))
                return (outcome, completed.map(Completion.made) ?? .addressOnly)
            }
        } catch StoreError.conflict {
            // Another request took the nickname or address in the same moment; nothing was spent.
            throw APIError.usernameTaken
        }
        if let error = outcome.error {
            context.audit(.codeFailed)
            throw error
        }
        if case .superseded = completion {
            context.audit(.signUpSuperseded, ["sign_in": String(signIn), "signup_token": String(signUpToken != nil)])
            throw APIError.signUpSuperseded
        }
        guard case .made(let completed) = completion else { return try .json(EmailVerified(email: email, emailVerificationToken: token)) }
        context.audit(.signUpCompleted, userID: completed.user.id, completed.signIn.map { ["sign_in": $0.rawValue] } ?? [:])
        services.activity.count(.signups, at: now)
        guard let opened = completed.session else { return try .json(EmailVerified(email: email, emailVerificationToken: token)) }
        context.audit(.loginSucceeded, userID: completed.user.id, ["via": "email_verify"])
        services.metrics.login(.signUpVerified)
        services.activity.count(.loginsSucceeded, at: now)
        let pair = try await services.sessions.tokenPair(user: completed.user, session: opened.0, refresh: opened.1, issuedAt: now, now: now)
        return try .json(EmailVerified(email: email, emailVerificationToken: token, session: pair))
    }
}

/// What a right code came to besides proving the address.
private enum Completion: Sendable {
    /// Only the address is proven: no pending sign-up to complete (or it made no account).
    case addressOnly
    /// The request's `signup_token` did not name the pending sign-up, which was dropped.
    case superseded
    /// The pending sign-up's account was made.
    case made(CompletedVerification)
}

/// A verification that made a pending sign-up's account, and what its request to sign in came to.
private struct CompletedVerification: Sendable {
    let user: UserRecord
    /// `nil` when the request did not ask to sign in.
    let signIn: VerifySignIn?
    /// The session opened, when `signIn` is ``VerifySignIn/signedIn``.
    let session: (SessionRecord, RefreshToken)?
}
