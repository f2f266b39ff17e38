import AccountAPI
import AccountStore
import Foundation
import Mailer
import Sodium

/// Signing up, both flows: a pending sign-up held until its mailed code is verified, or, with a
/// proof of the address, an account made verified and signed in at once.
package struct SignUpOperations {
    package let services: Services

    /// What a sign-up came to.
    package enum SignUpOutcome {
        /// A pending sign-up holds the nickname and a code was mailed (a notice to the owner of a
        /// taken address instead); `signUpToken` names it for the verification.
        case pending(signUpToken: String)
        /// The account was made verified and its session opened.
        case signedIn(TokenPair)
    }

    /// A sign-up's fields, their form already checked.
    package struct Request: Sendable {
        /// The nickname, normalized.
        package let username: String
        /// The address, normalized.
        package let email: String
        package let password: String
        package let mbti: MBTI
        /// The `email_verification_token` proving the address, if the request carries one.
        package let emailVerificationToken: String?

        package init(username: String, email: String, password: String, mbti: MBTI, emailVerificationToken: String? = nil) {
            self.username = username
            self.email = email
            self.password = password
            self.mbti = mbti
            self.emailVerificationToken = emailVerificationToken
        }
    }

    /// Signs `request` up. Without a token, a taken address is handled exactly like a free one:
    /// the password is hashed, the nickname held, the code cooldown started and a message mailed,
    /// so neither the outcome, its time nor any later request tells them apart. The sign-up keeps
    /// its client's fingerprint (``PendingSignUps/holdSignUp(_:now:in:)``). With
    /// `--allow-unverified-login` a free address gets its unverified account at once instead.
    /// With a token, see ``signUpVerified(_:token:by:)``.
    package func signUp(_ request: Request, by caller: Caller) async throws -> SignUpOutcome {
        let (services, username, email, now) = (services, request.username, request.email, caller.now)
        let skeletons = try services.nicknames.skeletons(of: username)
        let user = UserRecord(
            id: services.random.uuid(), username: username, usernameKey: UsernameRule.key(username), email: email,
            emailKey: EmailRule.key(email), passwordHash: try await services.passwords.hash(request.password), mbti: request.mbti.rawValue,
            emailVerified: false, createdAt: now, updatedAt: now,
            usernameSkeleton: skeletons.folded, usernameDisplaySkeleton: skeletons.displayed)

        if let token = request.emailVerificationToken {
            return .signedIn(try await signUpVerified(user, token: token, by: caller))
        }
        // A request always has an address; only the command line has none.
        let pending = PendingSignUpRecord(
            emailKey: user.emailKey, email: email, username: username, usernameKey: user.usernameKey,
            passwordHash: user.passwordHash, mbti: user.mbti, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(services.configuration.signUpHold)),
            usernameSkeleton: skeletons.folded, usernameDisplaySkeleton: skeletons.displayed,
            client: ClientFingerprint.of(userAgent: caller.userAgent, address: caller.clientAddress ?? "", key: services.secrets.clientKey))
        let (language, minutes, unverifiedLogin) = (caller.language, services.configuration.codeTTL / 60, services.configuration.allowUnverifiedLogin)
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
        if made.mailed { services.events.record(caller.event(.signUpCodeMailed)) }
        if made.account { services.events.record(caller.event(.signedUp(.details))) }
        // Made for a taken address too (its pending sign-up is a stranger's): the same shape.
        return .pending(signUpToken: services.signUps.signUpToken(emailKey: user.emailKey, passwordHash: user.passwordHash))
    }

    /// Email-first sign-up: the token proves the address, so the account starts verified and signed
    /// in. A token not of this address is `400 code_invalid`, an expired one `400 code_expired`; a
    /// taken nickname `409 username_taken`, a taken address a `taken` field error.
    private func signUpVerified(_ user: UserRecord, token: String, by caller: Caller) async throws -> TokenPair {
        var user = user
        user.emailVerified = true
        let tokenHash = Digest.sha256(Array(token.utf8))
        let (services, userAgent, origin, now) = (services, caller.userAgent, caller.origin, caller.now)
        let written: (UserRecord, SessionRecord, RefreshToken)
        do {
            written = try await services.events.write { [user] tx, ledger in
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
                let (session, refresh) = try services.sessions.openSession(for: user, userAgent: userAgent, origin: origin, now: now, in: tx)
                try ledger.record(caller.event(.signedIn(.signUp, .signUp), userID: user.id))
                try ledger.record(caller.event(.signedUp(.emailFirst), userID: user.id))
                return (user, session, refresh)
            }
        } catch StoreError.conflict(let field) {
            throw field == "email" ? APIError.validation("email", .taken) : APIError.usernameTaken
        }
        let (account, session, refresh) = written
        return try await services.sessions.tokenPair(user: account, session: session, refresh: refresh, issuedAt: now, now: now)
    }
}
