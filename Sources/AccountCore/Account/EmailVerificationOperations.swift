import AccountAPI
import AccountStore
import Foundation
import Sodium

/// Proving an address with the code mailed to it, which completes the address's pending sign-up.
package struct EmailVerificationOperations {
    package let services: Services

    /// What a right code came to. Both hand out a single-use `email_verification_token` for the
    /// address (`token`).
    package enum VerifyOutcome {
        /// The address is proven (and a pending sign-up's account made, if there was one).
        case verified(token: String)
        /// The pending sign-up's account was made and its session opened, as asked.
        case verifiedAndSignedIn(token: String, session: TokenPair)
    }

    /// What the code was asked to do besides proving the address.
    package struct Request: Sendable {
        /// The address, normalized.
        package let email: String
        /// The code, normalized.
        package let code: String
        /// The `signup_token` of the sign-up being completed, if the request names one.
        package let signUpToken: String?
        /// Whether a pending sign-up's account made now should also be signed in.
        package let signIn: Bool

        package init(email: String, code: String, signUpToken: String? = nil, signIn: Bool) {
            self.email = email
            self.code = code
            self.signUpToken = signUpToken
            self.signIn = signIn
        }
    }

    /// Checks the code mailed to the address (for sign-up or verification), spending it when
    /// right; a `verify` code completes the address's pending sign-up or verifies its unverified
    /// account, and signs a made account in when asked and ``PendingSignUps/signInAtVerify(_:signedUpAt:now:in:)``
    /// allows it. A wrong code is refused with its ``CodeCheck/error``; a `signup_token` that does
    /// not name the current pending sign-up (or none, when it is contested) `409 signup_superseded`;
    /// a nickname or address taken in the same moment `409 username_taken`.
    package func verify(_ request: Request, by caller: Caller) async throws -> VerifyOutcome {
        let (services, now, userAgent, origin) = (services, caller.now, caller.userAgent, caller.origin)
        let (emailKey, code, signUpToken, signIn) = (EmailRule.key(request.email), request.code, request.signUpToken, request.signIn)
        let token = OpaqueToken.random(services.random).text
        let tokenHash = Digest.sha256(Array(token.utf8))
        let tokenTTL = TimeInterval(services.configuration.verificationTokenTTL)

        let (outcome, completion): (CodeCheck, Completion)
        do {
            (outcome, completion) = try await services.events.write { tx, ledger -> (CodeCheck, Completion) in
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
                        if let decision {
                            try ledger.record(caller.event(.signedUp(.codeVerified), userID: made.user.id, ["sign_in": decision.rawValue]))
                        } else {
                            try ledger.record(caller.event(.signedUp(.codeVerified), userID: made.user.id))
                        }
                        if decision == .signedIn {
                            guard let account = try tx.lockUser(id: made.user.id) else { throw APIError.invalidCredentials }
                            session = try services.sessions.openSession(for: account, userAgent: userAgent, origin: origin, now: now, in: tx)
                            try ledger.record(caller.event(.signedIn(.emailVerification, .emailCode), userID: account.id, ["via": "email_verify"]))
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
            services.events.record(caller.event(.logged(.codeFailed)))
            throw error
        }
        if case .superseded = completion {
            services.events.record(caller.event(.logged(.signUpSuperseded), ["sign_in": String(signIn), "signup_token": String(signUpToken != nil)]))
            throw APIError.signUpSuperseded
        }
        guard case .made(let completed) = completion else { return .verified(token: token) }
        guard let opened = completed.session else { return .verified(token: token) }
        let pair = try await services.sessions.tokenPair(user: completed.user, session: opened.0, refresh: opened.1, issuedAt: now, now: now)
        return .verifiedAndSignedIn(token: token, session: pair)
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
    package let user: UserRecord
    /// `nil` when the request did not ask to sign in.
    package let signIn: VerifySignIn?
    /// The session opened, when `signIn` is ``VerifySignIn/signedIn``.
    package let session: (SessionRecord, RefreshToken)?
}
