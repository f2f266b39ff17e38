import AccountAPI
import Foundation

extension SessionManager {
    // MARK: Sign in with Apple

    /// Signs in with Apple: a new nonce, Apple's sheet through `authorizer`, then the server.
    ///
    /// - Returns: ``AppleSignInOutcome/signedIn(_:)`` (the pair is stored as a login's);
    ///   ``AppleSignInOutcome/profileRequired(_:)`` for Apple's new user (finish with
    ///   ``completeAppleSignUp(_:username:mbti:)``); ``AppleSignInOutcome/linkRequired`` when an
    ///   account has the address already; ``AppleSignInOutcome/cancelled`` when the person closed
    ///   the sheet.
    /// - Throws: ``AccountError/secondFactorRequired(_:)`` for an account with a second factor
    ///   (the manager keeps the challenge, as after a password: ``verifySecondFactor(code:)``);
    ///   other refusals as ``AccountError``; the device's failure as ``AuthorizationError``.
    public func signInWithApple(using authorizer: AppleSignInAuthorizer) async throws -> AppleSignInOutcome {
        let nonce = AppleNonce()
        guard let authorization = try await Self.ceremony({ try await authorizer.authorize(nonce.hashed) }) else { return .cancelled }
        return try await signInWithApple(authorization, nonce: nonce)
    }

    /// Signs in with what Apple gave for a request that carried `nonce`'s hash (the path of
    /// `SignInWithAppleButton`, whose request the app configures itself); otherwise as
    /// ``signInWithApple(using:)``.
    public func signInWithApple(_ authorization: AppleIDAuthorization, nonce: AppleNonce) async throws -> AppleSignInOutcome {
        let request = AppleSignInRequest(identityToken: authorization.identityToken, nonce: nonce.raw, authorizationCode: authorization.authorizationCode)
        let pair: TokenPair
        do {
            pair = try await client.signInWithApple(request)
        } catch AccountError.secondFactorRequired(let challenge) {
            throw AccountError.secondFactorRequired(awaitSecondFactor(challenge))
        } catch AccountError.refused(let problem) where problem.code == .profileRequired && problem.continuationToken != nil {
            return .profileRequired(
                AppleSignUp(
                    continuationToken: problem.continuationToken ?? "", email: problem.email ?? authorization.email ?? "",
                    receivedAt: now(), expiresIn: problem.expiresIn ?? 600))
        } catch AccountError.refused(let problem) where problem.code == .appleLinkRequired {
            return .linkRequired
        }
        try await adopt(pair)
        return .signedIn(pair.user)
    }

    /// Makes the account of Apple's new user with the nickname and MBTI type the person chose,
    /// stores its session, and publishes `signedIn`. The address is Apple's, verified; the
    /// account has no password (``AccountAPI/User/hasPassword`` is false) until one is set by
    /// the password reset.
    ///
    /// - Throws: as sign-up: ``AccountError/invalidInput(_:)`` (`username`, `mbti`),
    ///   ``AccountError/conflict(_:)`` with ``ErrorCode/usernameTaken``; when the sign-up is over
    ///   (used, or past its 10 minutes): ``AccountError/codeRejected(_:)``, so sign in with Apple again.
    @discardableResult public func completeAppleSignUp(_ signUp: AppleSignUp, username: String, mbti: MBTI) async throws -> User {
        let pair = try await client.completeAppleSignUp(
            AppleCompleteRequest(continuationToken: signUp.continuationToken, username: username, mbti: mbti.rawValue))
        try await adopt(pair)
        return pair.user
    }

    /// Links the person's Apple ID to the signed-in account (Apple's sheet through
    /// `authorizer`), so they can sign in with Apple from then on, proven as `proof` says (what
    /// the account held before: ``StepUpRequirement`` for ``SensitiveChange/linkApple``; the Apple
    /// ID being linked proves nothing); updates the state's user.
    ///
    /// - Returns: ``AppleLinkOutcome/cancelled`` when the person closed the sheet.
    /// - Throws: ``AccountError/conflict(_:)`` with ``ErrorCode/appleAlreadyLinked`` when the Apple
    ///   ID is another account's (or this account has another); ``AccountError/proofRequired(_:)``
    ///   or ``AccountError/invalidCredentials`` for the proof; ``AuthorizationError``.
    public func linkApple(using authorizer: AppleSignInAuthorizer, proof: AccountProof) async throws -> AppleLinkOutcome {
        let nonce = AppleNonce()
        guard let authorization = try await Self.ceremony({ try await authorizer.authorize(nonce.hashed) }) else { return .cancelled }
        let client = client
        let request = AppleLinkRequest(
            identityToken: authorization.identityToken, nonce: nonce.raw, authorizationCode: authorization.authorizationCode, proof: StepUpProof(proof))
        let user = try await authorized { try await client.linkApple(request, accessToken: $0) }
        remember(user)
        return .linked(user)
    }

    /// Unlinks Apple from the signed-in account, proven as `proof` says (``StepUpRequirement`` for
    /// ``SensitiveChange/unlinkApple``: for an account without a password, Apple's own
    /// ``appleProof(using:secondFactor:)``), and reads the user again.
    ///
    /// - Throws: ``AccountError/conflict(_:)`` with ``ErrorCode/lastSignInMethod`` when the account
    ///   has no password and no passkey (set a password by the reset, or add a passkey, first);
    ///   ``AccountError/proofRequired(_:)`` or ``AccountError/invalidCredentials`` for the proof.
    public func unlinkApple(proof: AccountProof) async throws {
        let client = client
        let request = StepUpProof(proof)
        try await authorized { try await client.unlinkApple(request, accessToken: $0) }
        _ = try? await me()
    }

    /// A proof of identity from Apple for a sensitive change of an account without a password
    /// (Apple's sheet through `authorizer`, a new nonce); `nil` when the person closed the sheet.
    /// Add the second factor while it is on.
    public func appleProof(using authorizer: AppleSignInAuthorizer, secondFactor: SecondFactorEntry? = nil) async throws -> AccountProof? {
        let nonce = AppleNonce()
        guard let authorization = try await Self.ceremony({ try await authorizer.authorize(nonce.hashed) }) else { return nil }
        return AccountProof(.apple(identityToken: authorization.identityToken, nonce: nonce.raw), secondFactor: secondFactor)
    }
}
