import AccountAPI
import AccountStore
import Foundation

/// Password sign-in: the account found by its username or email, the password checked under the
/// account's back-off, and a session opened, or a second-factor challenge for an account that has one.
package struct LoginOperations {
    package let services: Services

    /// What a right password came to.
    package enum LoginOutcome: Sendable {
        case signedIn(TokenPair)
        /// The account has a second factor: a challenge to answer at `POST /auth/mfa/verify`
        /// instead of a session.
        case secondFactorRequired(SecondFactorChallenge)
    }

    /// Signs in the account `identifier` names (an email when `byEmail`, else a username) with
    /// `password`.
    ///
    /// An unknown account costs one hash too and is refused as a wrong password is.
    /// `email_not_verified` comes only after a right password: of an unverified account, or of a
    /// pending sign-up (whose account is made when its code is verified; with
    /// `--allow-unverified-login`, at sign-up, or here for a sign-up that was pending when the
    /// option was turned on). Tries count for the account's back-off, shared with every other
    /// password check. A hash made with older parameters is replaced on the way. Refusals are
    /// thrown: back-off, wrong password, disabled account, address not verified.
    package func logIn(_ identifier: String, byEmail: Bool, password: String, caller: Caller) async throws -> LoginOutcome {
        try await services.events.signIn(.password, caller) {
            try await checkedLogIn(identifier, byEmail: byEmail, password: password, caller: caller)
        }
    }

    private func checkedLogIn(_ identifier: String, byEmail: Bool, password: String, caller: Caller) async throws -> LoginOutcome {
        let key = byEmail ? EmailRule.key(EmailRule.normalize(identifier)) : UsernameRule.key(UsernameRule.normalize(identifier))
        let (account, pending) = try await services.store.readPreferringInline { tx in
            byEmail ? (try tx.user(emailKey: key), try tx.pendingSignUp(emailKey: key))
                : (try tx.user(usernameKey: key), try tx.pendingSignUp(usernameKey: key))
        }
        let throttleKey = account.map { LoginThrottle.key(userID: $0.id) } ?? LoginThrottle.key(unknown: key, byEmail: byEmail)
        let now = caller.now
        let user: UserRecord
        let failure = caller.event(.checkFailed(.password, via: "login"), userID: account?.id)
        switch try await services.throttle.checkPassword(password, against: account?.passwordHash, throttleKey: throttleKey, now: now, failure: failure) {
        case .backedOff(let retryAfter):
            throw services.events.refuse(
                .rateLimited(retryAfter: retryAfter), caller.event(.loginRefused(.password, .backedOff, logged: true), userID: account?.id))
        case .right:
            guard let account else { throw APIError.invalidCredentials }
            if account.disabledAt != nil {
                // The password was right: this try is no failure; but no session, and no challenge.
                try await services.store.write { try services.throttle.clear(key: throttleKey, in: $0) }
                throw services.events.refuse(
                    .accountDisabled,
                    caller.event(.loginRefused(.password, .accountDisabled, logged: true), userID: account.id, ["why": "account_disabled"]))
            }
            if !account.emailVerified && !services.configuration.allowUnverifiedLogin {
                // The password was right: this try is no failure.
                try await services.store.write { try services.throttle.clear(key: throttleKey, in: $0) }
                throw APIError.emailNotVerified
            }
            user = account
        case .wrong:
            // The password of a pending sign-up: no account until its code is verified. Free and taken
            // addresses both have one after a sign-up, so this answers alike for both; it stays a
            // failure, so a stranger's pending sign-up never clears an account's back-off.
            guard let pending, pending.expiresAt > now, try await services.passwords.verify(password, against: pending.passwordHash) else {
                throw APIError.invalidCredentials
            }
            // With unverified logins allowed (turned on after this sign-up), a free address's pending
            // sign-up becomes its account now; a taken address's cannot (the documented cost).
            guard services.configuration.allowUnverifiedLogin,
                let opened = try await services.events.write({ tx, ledger -> UserRecord? in
                    let opened = try services.signUps.openPendingSignUp(pending, now: now, in: tx)
                    if let opened { try ledger.record(caller.event(.signedUp(.details), userID: opened.id)) }
                    return opened
                })
            else { throw APIError.emailNotVerified }
            user = opened
        }

        let stored = user.passwordHash
        let rehash = services.passwords.needsRehash(stored) ? try await services.passwords.hash(password) : nil
        if user.totpEnabled {
            return .secondFactorRequired(
                try await openChallenge(user, passwordChecked: stored, rehash: rehash, throttleKey: throttleKey, caller: caller))
        }
        let (userAgent, origin) = (caller.userAgent, caller.origin)
        let (signedIn, session, refresh) = try await services.events.write { tx, ledger in
            let current = try Self.accountAsChecked(user.id, passwordChecked: stored, rehash: rehash, now: now, in: tx)
            if current.totpEnabled { throw APIError.invalidCredentials }  // turned on while the password was checked
            try services.throttle.clear(key: throttleKey, in: tx)
            let (session, refresh) = try services.sessions.openSession(for: current, userAgent: userAgent, origin: origin, now: now, in: tx)
            try ledger.record(caller.event(.signedIn(.password, .password), userID: current.id))
            return (current, session, refresh)
        }
        return .signedIn(try await services.sessions.tokenPair(user: signedIn, session: session, refresh: refresh, issuedAt: now, now: now))
    }

    /// The account as it is now, locked for the rest of `tx`, with the rehashed password stored if
    /// there is one. The password was checked against `passwordChecked` outside any transaction
    /// (hashing takes tens of milliseconds): an account deleted, or given a new password, in the
    /// meantime gets the `401` a wrong password gets, never a session (nor a `500` from a session
    /// row whose account is gone), and nothing read before the check is written back.
    private static func accountAsChecked(
        _ id: UUID, passwordChecked: String, rehash: String?, now: Date, in tx: any StoreTransaction
    ) throws -> UserRecord {
        guard var current = try tx.lockUser(id: id), current.passwordHash == passwordChecked else {
            throw APIError.invalidCredentials
        }
        if let rehash {
            current.passwordHash = rehash
            current.updatedAt = now
            try tx.updateUser(current)
        }
        return current
    }

    /// The challenge for a right password of an account with a second factor: a new one (its
    /// `mfa_token`, single use, 5 minutes, 5 wrong codes) is stored with the rehashed password, if
    /// any, and the account's expired challenges are removed. The password's try is given back
    /// rather than cleared: the streak of wrong codes before it still counts, and it is no failure.
    private func openChallenge(
        _ user: UserRecord, passwordChecked: String, rehash: String?, throttleKey: String, caller: Caller
    ) async throws -> SecondFactorChallenge {
        let token = OpaqueToken.random(services.random)
        let now = caller.now
        let challenge = SecondFactorChallengeRecord(
            hash: token.hash, userID: user.id, createdAt: now, expiresAt: now.addingTimeInterval(SecondFactor.challengeLifetime))
        let throttle = services.throttle
        try await services.events.write { tx, ledger in
            _ = try Self.accountAsChecked(user.id, passwordChecked: passwordChecked, rehash: rehash, now: now, in: tx)
            try tx.deleteSecondFactorChallenges(userID: user.id, expiredBefore: now)
            try tx.insertSecondFactorChallenge(challenge)
            try throttle.refundLoginTry(key: throttleKey, now: now, in: tx)
            try ledger.record(caller.event(.secondFactorRequired(.password), userID: user.id))
        }
        var methods: [SecondFactorMethod] = [.totp]
        if user.recoveryCodesLeft > 0 { methods.append(.recoveryCode) }
        return SecondFactorChallenge(token: token.text, methods: methods)
    }
}
