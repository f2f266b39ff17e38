import AccountAPI
import AccountStore
import Foundation

/// Logging in with a verified Apple identity: a linked Apple ID signs in (or is asked for its
/// second factor), a new one gets a continuation to choose a nickname with, and one whose address
/// an account has is sent to link from that account.
package struct AppleLoginOperations {
    package let services: Services

    /// What logging in with a verified Apple identity came to.
    package enum LoginOutcome: Sendable {
        case signedIn(TokenPair)
        /// The account has an authenticator app: the challenge to answer with it.
        case secondFactorRequired(SecondFactorChallenge)
        /// No account has this Apple ID or its address: the continuation to choose a nickname with.
        case profileRequired(AppleProfileRequired)
        /// An account has the Apple ID's address: it links the Apple ID from a session of its own.
        case linkRequired
        /// The token was accepted before.
        case replayed
    }

    /// What a linked Apple user's login came to, decided in the transaction that records it.
    private enum Login: Sendable {
        case signedIn(UserRecord, SessionRecord, RefreshToken)
        case secondFactor(UserRecord, OpaqueToken)
        case disabled(UUID)
        /// Unlinked (or the account deleted) while the token was checked: start again.
        case gone
        /// The token was accepted before.
        case replayed
    }

    /// Logs in with `identity`, exchanging `code` for Apple's grant; a session opened is named
    /// `device`. A disabled account is `403 account_disabled`; an Apple ID unlinked meanwhile
    /// `401 apple_token_invalid`.
    package func logIn(_ identity: AppleIdentity, code: String?, device: String?, _ caller: Caller) async throws -> LoginOutcome {
        let now = caller.now
        let grants = services.apple.grants
        guard let linked = try await services.store.read({ try $0.appleIdentity(subject: identity.subject) }) else {
            return try await newAppleUser(identity, code: code, caller)
        }

        let sealed = await grants.exchange(code: code, clientID: identity.clientID, subject: identity.subject)
        let (sessions, origin) = (services.sessions, caller.origin)
        let login = try await services.events.write { tx, ledger -> Login in
            guard try AppleSignIn.spend(identity, in: tx) else { return .replayed }
            guard let current = try tx.appleIdentity(subject: identity.subject), current.userID == linked.userID,
                let user = try tx.lockUser(id: current.userID)
            else { return .gone }
            if let sealed { try tx.setAppleRefreshToken(subject: identity.subject, sealed: sealed) }
            if user.disabledAt != nil { return .disabled(user.id) }
            if user.totpEnabled {
                let challengeToken = OpaqueToken.random(services.random)
                try tx.deleteSecondFactorChallenges(userID: user.id, expiredBefore: now)
                try tx.insertSecondFactorChallenge(SecondFactorChallengeRecord(
                    hash: challengeToken.hash, userID: user.id, createdAt: now,
                    expiresAt: now.addingTimeInterval(SecondFactor.challengeLifetime), firstFactor: AuthenticationMethod.apple))
                try ledger.record(caller.event(.secondFactorRequired(.apple), userID: user.id, ["via": "apple"]))
                return .secondFactor(user, challengeToken)
            }
            let (session, refresh) = try sessions.openSession(
                for: user, userAgent: device, origin: origin, amr: [AuthenticationMethod.apple], now: now, in: tx)
            try ledger.record(caller.event(.signedIn(.apple, .apple), userID: user.id, ["via": "apple", "amr": AuthenticationMethod.apple]))
            return .signedIn(user, session, refresh)
        }
        switch login {
        case .signedIn(let user, let session, let refresh):
            return .signedIn(try await sessions.tokenPair(user: user, session: session, refresh: refresh, issuedAt: now, now: now))
        case .secondFactor(let user, let challengeToken):
            var methods: [SecondFactorMethod] = [.totp]
            if user.recoveryCodesLeft > 0 { methods.append(.recoveryCode) }
            return .secondFactorRequired(SecondFactorChallenge(token: challengeToken.text, methods: methods))
        case .disabled(let userID):
            services.events.record(caller.event(.loginRefused(.apple, .accountDisabled, logged: true), userID: userID, ["why": "account_disabled", "via": "apple"]))
            throw APIError.accountDisabled
        case .gone:
            services.events.record(caller.event(.logged(.appleTokenRefused), ["via": "apple_login", "reason": "unlinked_meanwhile"]))
            throw APIError.appleTokenInvalid
        case .replayed:
            return .replayed
        }
    }

    /// What a verified Apple user no account has comes to: `.linkRequired` when an account has the
    /// address, otherwise a continuation (single use, 10 minutes, by hash in the store so every
    /// server takes it).
    ///
    /// The continuation spends the identity token: it is what makes the account, so a replayed
    /// token must not get another one (whoever completed that would hold a session of an account
    /// linked to someone else's Apple ID). `.linkRequired` grants nothing and spends nothing.
    private func newAppleUser(_ identity: AppleIdentity, code: String?, _ caller: Caller) async throws -> LoginOutcome {
        let emailKey = EmailRule.key(EmailRule.normalize(identity.email))
        if let holder = try await services.store.read({ try $0.user(emailKey: emailKey) }) {
            services.events.record(caller.event(.logged(.appleLinkRequired), userID: holder.id))
            return .linkRequired
        }
        let now = caller.now
        let sealed = await services.apple.grants.exchange(code: code, clientID: identity.clientID, subject: identity.subject)
        let token = OpaqueToken.random(services.random)
        let continuation = AppleContinuationRecord(
            hash: token.hash, subject: identity.subject, clientID: identity.clientID, email: EmailRule.normalize(identity.email),
            sealedRefreshToken: sealed, createdAt: now, expiresAt: now.addingTimeInterval(AppleSignIn.continuationLifetime))
        let spent = try await services.store.write { tx -> Bool in
            guard try AppleSignIn.spend(identity, in: tx) else { return false }
            try tx.deleteAppleContinuations(expiredBefore: now)
            try tx.insertAppleContinuation(continuation)
            return true
        }
        guard spent else { return .replayed }
        services.events.record(caller.event(.logged(.appleProfileRequired)))
        return .profileRequired(AppleProfileRequired(
            continuationToken: token.text, expiresIn: Int(AppleSignIn.continuationLifetime), email: continuation.email))
    }
}
