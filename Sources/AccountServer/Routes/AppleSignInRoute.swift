import AccountAPI
import AccountStore
import Foundation
import HTTPServer

extension AppleRoutes {
    /// What a verified Apple user's login came to, decided in the transaction that records it.
    private enum Login: Sendable {
        case signedIn(UserRecord, SessionRecord, RefreshToken)
        case secondFactor(UserRecord, OpaqueToken)
        case disabled(UUID)
        /// Unlinked (or the account deleted) while the token was checked: start again.
        case gone
        /// The token was accepted before.
        case replayed
    }

    /// `POST /auth/apple`: Apple's identity token and the raw nonce. A linked Apple ID gets the
    /// login reply (`amr` `["apple"]`), or `403 mfa_required` when the account has an authenticator
    /// app; a new one `403 profile_required` with a continuation token; one whose address an
    /// account has `409 apple_link_required` (nothing is linked).
    func logIn(_ context: RequestContext) async throws -> HTTPResponse {
        _ = try services.apple.enabled()
        let body = try context.decodeBody(AppleSignInRequest.self)
        let (token, nonce) = try Self.tokenAndNonce(body.identityToken, body.nonce)
        let now = context.now
        let identity = try await services.apple.identity(token, nonce: nonce, context.caller, userID: nil, via: "apple_login")
        let grants = services.apple.grants
        guard let linked = try await services.store.read({ try $0.appleIdentity(subject: identity.subject) }) else {
            throw try await newAppleUser(identity, code: body.authorizationCode, context)
        }

        let sealed = await grants.exchange(code: body.authorizationCode, clientID: identity.clientID, subject: identity.subject)
        let (sessions, userAgent, origin) = (services.sessions, Self.device(body.deviceName, context), context.origin)
        let login = try await services.store.write { tx -> Login in
            guard try AppleSignIn.spend(identity, in: tx) else { return .replayed }
            guard let current = try tx.appleIdentity(subject: identity.subject), current.userID == linked.userID,
                let user = try tx.lockUser(id: current.userID)
            else { return .gone }
            if let sealed { try tx.setAppleRefreshToken(subject: identity.subject, sealed: sealed) }
            if user.disabledAt != nil { return .disabled(user.id) }
            if user.totpEnabled {
                let challengeToken = OpaqueToken.random()
                try tx.deleteSecondFactorChallenges(userID: user.id, expiredBefore: now)
                try tx.insertSecondFactorChallenge(SecondFactorChallengeRecord(
                    hash: challengeToken.hash, userID: user.id, createdAt: now,
                    expiresAt: now.addingTimeInterval(SecondFactor.challengeLifetime), firstFactor: AuthenticationMethod.apple))
                return .secondFactor(user, challengeToken)
            }
            let (session, refresh) = try sessions.openSession(
                for: user, userAgent: userAgent, origin: origin, amr: [AuthenticationMethod.apple], now: now, in: tx)
            return .signedIn(user, session, refresh)
        }
        switch login {
        case .signedIn(let user, let session, let refresh):
            context.audit(.loginSucceeded, userID: user.id, ["via": "apple", "amr": AuthenticationMethod.apple])
            return .tokenPair(try await sessions.tokenPair(user: user, session: session, refresh: refresh, issuedAt: now, now: now))
        case .secondFactor(let user, let challengeToken):
            context.audit(.secondFactorRequired, userID: user.id, ["via": "apple"])
            var methods: [SecondFactorMethod] = [.totp]
            if user.recoveryCodesLeft > 0 { methods.append(.recoveryCode) }
            throw APIError.mfaRequired(SecondFactorChallenge(token: challengeToken.text, methods: methods))
        case .disabled(let userID):
            context.audit(.loginRefused, userID: userID, ["why": "account_disabled", "via": "apple"])
            throw APIError.accountDisabled
        case .gone:
            context.audit(.appleTokenRefused, ["via": "apple_login", "reason": "unlinked_meanwhile"])
            throw APIError.appleTokenInvalid
        case .replayed:
            throw AppleSignIn.refuse(.replayed, context.caller, userID: nil, via: "apple_login")
        }
    }

    /// The reply to a verified Apple user no account has: `409 apple_link_required` when an
    /// account has the address, otherwise a continuation (single use, 10 minutes, by hash in the
    /// store so every server takes it) and `403 profile_required`.
    ///
    /// The continuation spends the identity token: it is what makes the account, so a replayed
    /// token must not get another one (whoever completed that would hold a session of an account
    /// linked to someone else's Apple ID). `409` grants nothing and spends nothing.
    private func newAppleUser(_ identity: AppleIdentity, code: String?, _ context: RequestContext) async throws -> APIError {
        let emailKey = EmailRule.key(EmailRule.normalize(identity.email))
        if let holder = try await services.store.read({ try $0.user(emailKey: emailKey) }) {
            context.audit(.appleLinkRequired, userID: holder.id)
            return .appleLinkRequired
        }
        let now = context.now
        let sealed = await services.apple.grants.exchange(code: code, clientID: identity.clientID, subject: identity.subject)
        let token = OpaqueToken.random()
        let continuation = AppleContinuationRecord(
            hash: token.hash, subject: identity.subject, clientID: identity.clientID, email: EmailRule.normalize(identity.email),
            sealedRefreshToken: sealed, createdAt: now, expiresAt: now.addingTimeInterval(AppleSignIn.continuationLifetime))
        let spent = try await services.store.write { tx -> Bool in
            guard try AppleSignIn.spend(identity, in: tx) else { return false }
            try tx.deleteAppleContinuations(expiredBefore: now)
            try tx.insertAppleContinuation(continuation)
            return true
        }
        guard spent else { return AppleSignIn.refuse(.replayed, context.caller, userID: nil, via: "apple_login") }
        context.audit(.appleProfileRequired)
        return .profileRequired(AppleProfileRequired(
            continuationToken: token.text, expiresIn: Int(AppleSignIn.continuationLifetime), email: continuation.email))
    }

    /// What completing a continuation came to.
    private enum Completion: Sendable {
        case created(UserRecord, SessionRecord, RefreshToken)
        case unknown
        case expired
        case addressTaken
    }

    /// `POST /auth/apple/complete`: the continuation token with a nickname and MBTI type; `201`
    /// with the login reply of the new account (address verified, no password, Apple linked).
    /// The token is spent by a success (or found expired); a taken nickname leaves it usable.
    func complete(_ context: RequestContext) async throws -> HTTPResponse {
        _ = try services.apple.enabled()
        let body = try context.decodeBody(AppleCompleteRequest.self)
        var errors = FieldErrors()
        let token = body.continuationToken ?? ""
        if token.isEmpty { errors.add(.required, to: "continuation_token") }
        if let username = body.username { errors.add(contentsOf: try services.nicknames.validate(username), to: "username") } else {
            errors.add(.required, to: "username")
        }
        errors.add(contentsOf: MBTIRule.validate(body.mbti ?? ""), to: "mbti")
        guard errors.isEmpty, let rawUsername = body.username, let mbti = body.mbti.flatMap(MBTI.init(parsing:)) else {
            throw APIError.validation(errors)
        }
        guard token.utf8.count <= 256 else { throw Self.unknownContinuation }
        let hash = OpaqueToken(text: token).hash
        let username = UsernameRule.normalize(rawUsername)
        let skeletons = try services.nicknames.skeletons(of: username)
        let (now, userAgent, origin) = (context.now, Self.device(body.deviceName, context), context.origin)
        let (sessions, signUps) = (services.sessions, services.signUps)

        let completion: Completion
        do {
            completion = try await services.store.write { tx -> Completion in
                guard let continuation = try tx.appleContinuation(hash: hash) else { return .unknown }
                guard continuation.expiresAt > now else {
                    try tx.deleteAppleContinuation(hash: hash)
                    return .expired
                }
                let emailKey = EmailRule.key(continuation.email)
                // Made by another continuation of this Apple user meanwhile, or its address taken.
                if try tx.appleIdentity(subject: continuation.subject) != nil {
                    try tx.deleteAppleContinuation(hash: hash)
                    return .unknown
                }
                if try tx.user(emailKey: emailKey) != nil {
                    try tx.deleteAppleContinuation(hash: hash)
                    return .addressTaken
                }
                let user = UserRecord(
                    id: UUID.random(), username: username, usernameKey: UsernameRule.key(username), email: continuation.email,
                    emailKey: emailKey, passwordHash: "", mbti: mbti.rawValue, emailVerified: true, createdAt: now, updatedAt: now,
                    usernameSkeleton: skeletons.folded, usernameDisplaySkeleton: skeletons.displayed)
                guard try signUps.nicknameIsFree(user, for: emailKey, now: now, in: tx) else { throw APIError.usernameTaken }
                try tx.insertUser(user)
                // Apple proved the address: a sign-up of it still waiting for its code is void.
                try tx.deletePendingSignUp(emailKey: emailKey)
                let identity = AppleIdentityRecord(
                    subject: continuation.subject, userID: user.id, clientID: continuation.clientID, email: continuation.email,
                    // Sealed for this Apple user (the subject), so it moves as it is.
                    sealedRefreshToken: continuation.sealedRefreshToken, createdAt: now)
                guard try tx.insertAppleIdentity(identity) else { throw Self.unknownContinuation }
                try tx.deleteAppleContinuation(hash: hash)
                let (session, refresh) = try sessions.openSession(
                    for: user, userAgent: userAgent, origin: origin, amr: [AuthenticationMethod.apple], now: now, in: tx)
                return .created(try tx.user(id: user.id) ?? user, session, refresh)
            }
        } catch StoreError.conflict(let field) {
            throw field == "email" ? APIError.appleLinkRequired : APIError.usernameTaken
        }
        switch completion {
        case .created(let user, let session, let refresh):
            context.audit(.signUpCompleted, userID: user.id, ["via": "apple"])
            context.audit(.loginSucceeded, userID: user.id, ["via": "apple", "amr": AuthenticationMethod.apple])
            return .tokenPair(try await sessions.tokenPair(user: user, session: session, refresh: refresh, issuedAt: now, now: now), status: 201)
        case .unknown: throw Self.unknownContinuation
        case .expired: throw Self.expiredContinuation
        case .addressTaken:
            context.audit(.appleLinkRequired)
            throw APIError.appleLinkRequired
        }
    }

    private static let unknownContinuation = APIError(
        400, .codeInvalid,
        detail: LocalizedText(
            en: "This sign-up step is unknown or was already used: sign in with Apple again.",
            ko: "알 수 없거나 이미 사용된 가입 단계예요. Apple로 다시 로그인해 주세요."))
    private static let expiredContinuation = APIError(
        400, .codeExpired,
        detail: LocalizedText(
            en: "This sign-up step expired after 10 minutes: sign in with Apple again.",
            ko: "가입 단계가 10분이 지나 만료되었어요. Apple로 다시 로그인해 주세요."))
}
