import AccountAPI
import AccountStore
import Foundation

/// The second step of a login: a challenge of `403 mfa_required` answered with one factor.
package struct SecondFactorLoginOperations {
    package let services: Services

    /// What answering a login's challenge came to, decided inside the transaction and answered
    /// after it commits (a wrong code's counted try must not roll back).
    private enum Verification: Sendable {
        case verified(UserRecord, SessionRecord, RefreshToken)
        case wrongCode(userID: UUID)
        /// The challenge was answered, spent or expired by another request meanwhile.
        case refused(APIError)
    }

    /// Answers the challenge whose `mfa_token` is `token` with `proof`: the same token pair as a
    /// login, the session's `amr` naming the factor.
    ///
    /// A dead challenge is refused without touching the account: unknown or already used
    /// (`code_invalid`), past its 5 minutes (`code_expired`), or spent by 5 wrong codes
    /// (`too_many_attempts`). Otherwise the try is counted in the account's login back-off before
    /// the code is checked (a backed-off account is refused with `rate_limited` and the code is
    /// not looked at); a wrong code is `code_invalid`, counts on the challenge and in the back-off.
    /// The challenge row is locked while it is answered, so of simultaneous answers one wins.
    package func verify(_ token: String, _ proof: SecondFactorProof, caller: Caller) async throws -> TokenPair {
        try await services.events.signIn(.secondFactor, caller) { try await checkedVerify(token, proof, caller: caller) }
    }

    private func checkedVerify(_ token: String, _ proof: SecondFactorProof, caller: Caller) async throws -> TokenPair {
        guard token.utf8.count <= 256 else { throw Self.unknownChallenge }
        let hash = OpaqueToken(text: token).hash
        let now = caller.now

        let found = try await services.store.read { try $0.secondFactorChallenge(hash: hash) }
        if let refusal = Self.refusal(for: found, now: now) { throw refusal }
        guard let userID = found?.userID else { throw Self.unknownChallenge }
        let throttleKey = LoginThrottle.key(userID: userID)
        if let retryAfter = try await services.throttle.reserveLoginTry(key: throttleKey, now: now) {
            throw services.events.refuse(
                .rateLimited(retryAfter: retryAfter),
                caller.event(.loginRefused(.secondFactor, .backedOff, logged: true), userID: userID, ["via": "mfa_verify"]))
        }

        let (language, userAgent, origin, source) = (caller.language, caller.userAgent, caller.origin, caller.source)
        let (factors, sessions, throttle) = (services.secondFactor, services.sessions, services.throttle)
        let outcome = try await services.events.write { tx, ledger -> Verification in
            let challenge = try tx.secondFactorChallenge(hash: hash)
            if let refusal = Self.refusal(for: challenge, now: now) {
                try throttle.refundLoginTry(key: throttleKey, now: now, in: tx)
                return .refused(refusal)
            }
            guard let user = try tx.lockUser(id: userID) else { return .refused(Self.unknownChallenge) }
            let check = try factors.check(proof, user: user, language: language, now: now, source: source, logged: true, in: &ledger)
            guard check != .wrong else {
                _ = try tx.countSecondFactorChallengeAttempt(hash: hash)
                return .wrongCode(userID: userID)
            }
            try tx.deleteSecondFactorChallenge(hash: hash)
            try throttle.clear(key: throttleKey, in: tx)
            // The first step's method (the password, or Apple) before the factor's.
            let amr = [challenge?.firstFactor ?? AuthenticationMethod.password] + check.amr.dropFirst()
            let (session, refresh) = try sessions.openSession(for: user, userAgent: userAgent, origin: origin, amr: amr, now: now, in: tx)
            try ledger.record(caller.event(
                .signedIn(.secondFactor, SignInMethod(amr: amr)), userID: user.id, ["via": "mfa_verify", "amr": amr.joined(separator: " ")]))
            // As stored now: a recovery code used counts down the codes the reply's user shows.
            return .verified(try tx.user(id: user.id) ?? user, session, refresh)
        }
        switch outcome {
        case .verified(let user, let session, let refresh):
            return try await sessions.tokenPair(user: user, session: session, refresh: refresh, issuedAt: now, now: now)
        case .wrongCode(let userID):
            try await services.throttle.refuseWrongCode(userID: userID, now: now, source: caller.source, via: "mfa_verify")
        case .refused(let error):
            throw error
        }
    }

    /// Why a challenge cannot be answered, if it cannot.
    private static func refusal(for challenge: SecondFactorChallengeRecord?, now: Date) -> APIError? {
        guard let challenge else { return unknownChallenge }
        if challenge.attempts >= SecondFactor.challengeAttempts { return spentChallenge }
        if challenge.expiresAt <= now { return expiredChallenge }
        return nil
    }

    private static let unknownChallenge = APIError(
        400, .codeInvalid,
        detail: LocalizedText(
            en: "This sign-in step is unknown or was already used: log in again.",
            ko: "알 수 없거나 이미 사용된 로그인 단계예요. 다시 로그인해 주세요."))
    private static let expiredChallenge = APIError(
        400, .codeExpired,
        detail: LocalizedText(
            en: "This sign-in step expired after 5 minutes: log in again.",
            ko: "로그인 단계가 5분이 지나 만료되었어요. 다시 로그인해 주세요."))
    private static let spentChallenge = APIError(
        429, .tooManyAttempts,
        detail: LocalizedText(
            en: "Too many wrong codes for this sign-in step: log in again.",
            ko: "이 로그인 단계에서 잘못된 코드를 너무 많이 입력했어요. 다시 로그인해 주세요."))
}
