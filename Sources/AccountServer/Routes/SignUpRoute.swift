import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Mailer
import Sodium

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

        let username = UsernameRule.normalize(rawUsername)
        let email = EmailRule.normalize(rawEmail)
        let now = context.now
        let skeletons = try services.nicknames.skeletons(of: username)
        let user = UserRecord(
            id: UUID.random(), username: username, usernameKey: UsernameRule.key(username), email: email,
            emailKey: EmailRule.key(email), passwordHash: try await services.passwords.hash(password), mbti: mbti.rawValue,
            emailVerified: false, createdAt: now, updatedAt: now,
            usernameSkeleton: skeletons.folded, usernameDisplaySkeleton: skeletons.displayed)

        if let token = body.emailVerificationToken {
            return try await signUpVerified(user, token: token, context: context)
        }
        let pending = PendingSignUpRecord(
            emailKey: user.emailKey, email: email, username: username, usernameKey: user.usernameKey,
            passwordHash: user.passwordHash, mbti: user.mbti, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(services.configuration.signUpHold)),
            usernameSkeleton: skeletons.folded, usernameDisplaySkeleton: skeletons.displayed,
            client: ClientFingerprint.of(
                userAgent: context.request.headers["User-Agent"], address: context.clientAddress, key: services.secrets.clientKey))
        let (language, minutes, unverifiedLogin) = (context.language, services.configuration.codeTTL / 60, services.configuration.allowUnverifiedLogin)
        // Whether a code was mailed, and whether the account was made at once.
        var made = (mailed: false, account: false)
        do {
            made = try await services.store.write { tx -> (mailed: Bool, account: Bool) in
                let account = try tx.user(emailKey: user.emailKey)
                guard try services.signUps.nicknameIsFree(user, for: user.emailKey, now: now, in: tx) else { throw APIError.usernameTaken }
                // Claims the address's code cooldown first: simultaneous sign-ups of one address
                // (on any server) wait here, and all but one are refused with nothing kept.
                let mailed = try services.codes.issue(emailKey: user.emailKey, purpose: CodePurpose.verify.rawValue, now: now, in: tx) { code in
                    guard let account else {
                        return .code(MailTemplates.code(
                            code, purpose: .verify, language: language, lifetimeMinutes: minutes, to: email, signingUpAs: username))
                    }
                    return .notice(MailTemplates.alreadyRegistered(language: language, to: account.email))
                }
                if account == nil && unverifiedLogin {
                    // Unverified logins allowed: a free address's account exists at once (see logIn).
                    try tx.deletePendingSignUp(emailKey: user.emailKey)
                    try tx.insertUser(user)
                    return (mailed, true)
                }
                try services.signUps.holdSignUp(pending, now: now, in: tx)
                return (mailed, false)
            }
        } catch StoreError.conflict(let field) where field == "email" {
            // (Unverified logins allowed) another sign-up made the account in the same moment: as for a taken address.
        } catch StoreError.conflict {
            // Another sign-up took the nickname between our check and write.
            throw APIError.usernameTaken
        }
        if made.mailed { services.activity.count(.codesSent, at: now) }
        if made.account { services.activity.count(.signups, at: now) }
        // Made for a taken address too (its pending sign-up is a stranger's): the same shape.
        let token = services.signUps.signUpToken(emailKey: user.emailKey, passwordHash: user.passwordHash)
        return try .json(SignUpAccepted(email: email, expiresIn: services.configuration.codeTTL, signUpToken: token), status: 202)
    }

    /// Email-first sign-up: the token proves the address, so the account starts verified and signed in.
    private func signUpVerified(_ user: UserRecord, token: String, context: RequestContext) async throws -> HTTPResponse {
        var user = user
        user.emailVerified = true
        let tokenHash = Digest.sha256(Array(token.utf8))
        let (userAgent, origin) = (context.request.headers["User-Agent"], context.origin)
        let now = context.now
        let written: (UserRecord, SessionRecord, RefreshToken)
        do {
            written = try await services.store.write { [user] tx in
            guard let proof = try tx.takeVerificationToken(hash: tokenHash), proof.emailKey == user.emailKey else {
                throw APIError.codeInvalid
            }
            guard proof.expiresAt > now else { throw APIError.codeExpired }
            guard try services.signUps.nicknameIsFree(user, for: user.emailKey, now: now, in: tx) else { throw APIError.usernameTaken }
            // The caller proved they own this address, so saying it is taken tells nobody else anything.
            if try tx.user(emailKey: user.emailKey) != nil { throw APIError.validation("email", .taken) }
            // This sign-up takes the place of the address's pending one, if any.
            try tx.deletePendingSignUp(emailKey: user.emailKey)
            try tx.insertUser(user)
            let (session, refresh) = try services.sessions.openSession(for: user, userAgent: userAgent, origin: origin, method: .signUp, now: now, in: tx)
            return (user, session, refresh)
            }
        } catch StoreError.conflict(let field) {
            throw field == "email" ? APIError.validation("email", .taken) : APIError.usernameTaken
        }
        let (account, session, refresh) = written
        services.activity.count(.signups, at: now)
        return .tokenPair(try await services.sessions.tokenPair(user: account, session: session, refresh: refresh, issuedAt: now, now: now), status: 201)
    }
}
