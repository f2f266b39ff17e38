import AccountAPI
import AccountStore
import Foundation

/// A new Apple user's sign-up: the continuation of `403 profile_required` completed with a
/// nickname and an MBTI type makes the account (address verified, no password, Apple linked).
package struct AppleSignUpOperations {
    package let services: Services

    /// What completing a continuation came to.
    package enum CompletionOutcome: Sendable {
        /// The new account's login reply.
        case created(TokenPair)
        /// An account has the continuation's address meanwhile: it links the Apple ID from a
        /// session of its own.
        case linkRequired
    }

    /// What completing a continuation came to, decided in the transaction that makes the account.
    private enum Completion: Sendable {
        case created(UserRecord, SessionRecord, RefreshToken)
        case unknown
        case expired
        case addressTaken
    }

    /// Completes the continuation `token` with the account's nickname `rawUsername` and `mbti`;
    /// the session opened is named `device`. The token is spent by a success (or found expired); a
    /// taken nickname (`409 username_taken`) leaves it usable. An unknown or spent token is `400
    /// code_invalid`, an expired one `400 code_expired`.
    package func complete(
        _ token: String, username rawUsername: String, mbti: MBTI, device: String?, _ caller: Caller
    ) async throws -> CompletionOutcome {
        guard token.utf8.count <= 256 else { throw Self.unknownContinuation }
        let hash = OpaqueToken(text: token).hash
        let username = UsernameRule.normalize(rawUsername)
        let skeletons = try services.nicknames.skeletons(of: username)
        let (now, origin) = (caller.now, caller.origin)
        let (sessions, signUps) = (services.sessions, services.signUps)

        let completion: Completion
        do {
            completion = try await services.events.write { tx, ledger -> Completion in
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
                    id: services.random.uuid(), username: username, usernameKey: UsernameRule.key(username), email: continuation.email,
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
                    for: user, userAgent: device, origin: origin, amr: [AuthenticationMethod.apple], now: now, in: tx)
                try ledger.record(caller.event(.signedUp(.apple), userID: user.id, ["via": "apple"]))
                try ledger.record(caller.event(.signedIn(.apple, .apple), userID: user.id, ["via": "apple", "amr": AuthenticationMethod.apple]))
                return .created(try tx.user(id: user.id) ?? user, session, refresh)
            }
        } catch StoreError.conflict(let field) {
            guard field == "email" else { throw APIError.usernameTaken }
            return .linkRequired
        }
        switch completion {
        case .created(let user, let session, let refresh):
            return .created(try await sessions.tokenPair(user: user, session: session, refresh: refresh, issuedAt: now, now: now))
        case .unknown: throw Self.unknownContinuation
        case .expired: throw Self.expiredContinuation
        case .addressTaken:
            services.events.record(caller.event(.logged(.appleLinkRequired)))
            return .linkRequired
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
