import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Mailer
import Sodium

extension AccountApp {
    /// `POST /auth/signup`, both flows: without a token the account starts unverified and a code is
    /// mailed (202); with an `email_verification_token` it starts verified and is signed in (201).
    ///
    /// A taken address answers exactly like a free one (and its owner gets a notice instead of a
    /// code); the password is hashed on both paths so the time does not tell them apart either.
    func signUp(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(SignUpRequest.self)
        var errors = SignUpRules.validate(
            username: body.username, email: body.email, password: body.password,
            passwordConfirmation: body.passwordConfirmation, mbti: body.mbti)
        if let name = body.username, errors["username"].isEmpty {
            errors.add(contentsOf: try nicknames.serverErrors(name), to: "username")
        }
        guard errors.isEmpty, let rawUsername = body.username, let rawEmail = body.email,
            let password = body.password, let mbti = body.mbti.flatMap(MBTI.init(parsing:))
        else { throw APIError.validation(errors) }

        let username = UsernameRule.normalize(rawUsername)
        let email = EmailRule.normalize(rawEmail)
        let now = context.now
        let skeletons = try nicknames.skeletons(of: username)
        let user = UserRecord(
            id: UUID(), username: username, usernameKey: UsernameRule.key(username), email: email,
            emailKey: EmailRule.key(email), passwordHash: try await passwords.hash(password), mbti: mbti.rawValue,
            emailVerified: false, createdAt: now, updatedAt: now,
            usernameSkeleton: skeletons.folded, usernameDisplaySkeleton: skeletons.displayed)

        if let token = body.emailVerificationToken {
            return try await signUpVerified(user, token: token, context: context)
        }
        let code = codes.newCode()
        let codeHash = codes.hash(code: code, emailKey: user.emailKey, purpose: CodePurpose.verify.rawValue)
        let language = context.language
        let codeTTL = configuration.codeTTL
        do {
            try await store.write { tx in
            if try self.nicknames.isTaken(user, in: tx) { throw APIError.usernameTaken }
            if let owner = try tx.user(emailKey: user.emailKey) {
                // To the address as the owner stored it, not as this request spelled it.
                try Outbox.enqueue(MailTemplates.alreadyRegistered(language: language, to: owner.email), in: tx, now: now)
                return
            }
            try tx.insertUser(user)
            try tx.upsertCode(CodeRecord(
                emailKey: user.emailKey, purpose: CodePurpose.verify.rawValue, codeHash: codeHash,
                createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(codeTTL))))
            try Outbox.enqueue(
                MailTemplates.code(code, purpose: .verify, language: language, lifetimeMinutes: codeTTL / 60, to: email),
                in: tx, now: now)
            }
        } catch StoreError.conflict(let field) where field == "email" {
            // Another sign-up took the address between our check and insert: answer as for a taken one.
        } catch StoreError.conflict {
            throw APIError.usernameTaken
        }
        mail.poke()
        return try .json(SignUpAccepted(email: email, expiresIn: codeTTL), status: 202)
    }

    /// Email-first sign-up: the token proves the address, so the account starts verified and signed in.
    private func signUpVerified(_ user: UserRecord, token: String, context: RequestContext) async throws -> HTTPResponse {
        var user = user
        user.emailVerified = true
        let tokenHash = Digest.sha256(Array(token.utf8))
        let userAgent = context.request.headers["User-Agent"]
        let now = context.now
        let written: (UserRecord, SessionRecord, RefreshToken)
        do {
            written = try await store.write { [user] tx in
            guard let proof = try tx.takeVerificationToken(hash: tokenHash), proof.emailKey == user.emailKey else {
                throw APIError.codeInvalid
            }
            guard proof.expiresAt > now else { throw APIError.codeExpired }
            if try self.nicknames.isTaken(user, in: tx) { throw APIError.usernameTaken }
            // The caller proved they own this address, so saying it is taken tells nobody else anything.
            if try tx.user(emailKey: user.emailKey) != nil { throw APIError.validation("email", .taken) }
            try tx.insertUser(user)
            let (session, refresh) = try self.openSession(userID: user.id, userAgent: userAgent, now: now, in: tx)
            return (user, session, refresh)
            }
        } catch StoreError.conflict(let field) {
            throw field == "email" ? APIError.validation("email", .taken) : APIError.usernameTaken
        }
        let (account, session, refresh) = written
        return .tokenPair(try await tokenPair(user: account, session: session, refresh: refresh, issuedAt: now, now: now), status: 201)
    }
}
