import AccountAPI
import Foundation

extension SessionManager {
    // MARK: The login's second step

    /// Finishes a login that answered ``AccountError/secondFactorRequired(_:)`` with the
    /// authenticator app's 6-digit code (spaces ignored); stores the pair like ``logIn(_:)``.
    ///
    /// - Throws: ``AccountError/codeRejected(_:)`` with ``ErrorCode/codeInvalid`` for a wrong
    ///   code (the challenge stays, ``SecondFactorChallenge/attemptsLeft`` one less);
    ///   ``AccountError/secondFactorChallengeEnded(_:)`` when the step is over (5 minutes, 5 wrong
    ///   codes, or none waiting): the state is `signedOut` then, log in again with the password;
    ///   ``AccountError/rateLimited(retryAfter:)`` while the account's login back-off lasts.
    @discardableResult public func verifySecondFactor(code: String) async throws -> User {
        try await verifySecondFactor(SecondFactorEntry(code: code, recoveryCode: nil))
    }

    /// Finishes a login that answered ``AccountError/secondFactorRequired(_:)`` with one of the
    /// account's recovery codes (letter case, spaces and hyphens ignored); the code is spent and
    /// the owner gets a notice. Otherwise as ``verifySecondFactor(code:)``.
    @discardableResult public func verifySecondFactor(recoveryCode: String) async throws -> User {
        try await verifySecondFactor(SecondFactorEntry(code: nil, recoveryCode: recoveryCode))
    }

    /// Finishes the waiting login with the factor `entry` holds.
    func verifySecondFactor(_ entry: SecondFactorEntry) async throws -> User {
        guard let challenge = secondFactorChallenge else { throw AccountError.secondFactorChallengeEnded(.codeInvalid) }
        guard !challenge.isExpired(at: now()) else { throw endSecondFactor(.codeExpired) }
        let (code, recoveryCode) = entry.wire
        let pair: TokenPair
        do {
            pair = try await client.verifySecondFactor(
                SecondFactorVerifyRequest(mfaToken: challenge.mfaToken, code: code, recoveryCode: recoveryCode))
        } catch AccountError.codeRejected(let reason) where reason == .codeInvalid {
            // A wrong code counts on the challenge; past the server's limit the step is over.
            guard var current = secondFactorChallenge, current.mfaToken == challenge.mfaToken else { throw AccountError.codeRejected(reason) }
            current.wrongCodes += 1
            guard current.attemptsLeft > 0 else { throw endSecondFactor(.tooManyAttempts) }
            keepSecondFactor(current)
            throw AccountError.codeRejected(reason)
        } catch AccountError.secondFactorChallengeEnded(let reason) {
            throw endSecondFactor(reason)
        }
        try await adopt(pair)
        return pair.user
    }

    /// Drops the waiting login (the person went back to the password): the state is `signedOut`
    /// again, or stays `signedIn` when a session is kept.
    public func cancelSecondFactor() {
        guard secondFactorChallenge != nil else { return }
        _ = endSecondFactor(.codeInvalid)
    }

    /// Keeps `challenge`, received now, as the login waiting for its second factor.
    func awaitSecondFactor(_ challenge: SecondFactorChallenge) -> SecondFactorChallenge {
        let stamped = challenge.received(at: now())
        keepSecondFactor(stamped)
        return stamped
    }

    private func keepSecondFactor(_ challenge: SecondFactorChallenge) {
        secondFactorChallenge = challenge
        if session == nil { publish(.awaitingSecondFactor(challenge)) }
    }

    /// Forgets the waiting login; the error to throw.
    private func endSecondFactor(_ reason: ErrorCode) -> AccountError {
        secondFactorChallenge = nil
        if session == nil, case .awaitingSecondFactor = state { publish(.signedOut) }
        return .secondFactorChallengeEnded(reason)
    }

    // MARK: Managing the factor (signed in)

    /// `POST /auth/mfa/totp`: starts enrolling an authenticator app, proven as `proof` says
    /// (``StepUpRequirement`` for ``SensitiveChange/enableSecondFactor``: the password, or a
    /// passkey for an account that holds one); show the reply's ``TOTPEnrollment/otpauthURI`` as a
    /// QR code and its secret as text, then ``confirmTOTP(code:)``.
    ///
    /// - Throws: ``AccountError/proofRequired(_:)`` with ``MissingProof/passkey`` for a password
    ///   of an account that holds a passkey; ``AccountError/invalidCredentials`` for a wrong one.
    public func enrollTOTP(proof: AccountProof) async throws -> TOTPEnrollment {
        let client = client
        let request = StepUpProof(proof)
        return try await authorized { try await client.enrollTOTP(request, accessToken: $0) }
    }

    /// ``enrollTOTP(proof:)`` with the account's password: for an account that holds no passkey.
    public func enrollTOTP(password: String) async throws -> TOTPEnrollment {
        try await enrollTOTP(proof: .password(password))
    }

    /// `POST /auth/mfa/totp/confirm`: the app's current code turns the factor on; returns the ten
    /// recovery codes (shown once). Every other session ends; this one stays and its user is read
    /// again (``SessionEvent/userUpdated(_:)`` with ``AccountAPI/User/mfa`` on).
    public func confirmTOTP(code: String) async throws -> [String] {
        let client = client
        let request = TOTPConfirmRequest(code: SecondFactorEntry(code: code, recoveryCode: nil).normalizedCode)
        let codes = try await authorized { try await client.confirmTOTP(request, accessToken: $0) }
        await reloadUser()
        return codes.recoveryCodes
    }

    /// `POST /auth/mfa/recovery-codes`: a new set of ten recovery codes, proven as `proof` says
    /// (``StepUpRequirement`` for ``SensitiveChange/replaceRecoveryCodes``) with an authenticator
    /// code always as its second factor (a recovery code cannot make new ones); the old set stops
    /// working.
    ///
    /// - Throws: ``AccountError/proofRequired(_:)`` with ``MissingProof/secondFactor`` without an
    ///   authenticator code; ``AccountError/codeRejected(_:)`` for a wrong one.
    public func replaceRecoveryCodes(proof: AccountProof) async throws -> [String] {
        let client = client
        let request = StepUpProof(proof)
        let codes = try await authorized { try await client.replaceRecoveryCodes(request, accessToken: $0) }
        await reloadUser()
        return codes.recoveryCodes
    }

    /// ``replaceRecoveryCodes(proof:)`` with the password and an authenticator code.
    public func replaceRecoveryCodes(password: String, code: String) async throws -> [String] {
        try await replaceRecoveryCodes(proof: .password(password, code: code))
    }

    /// `DELETE /auth/mfa/totp`: turns the second factor off, proven as `proof` says
    /// (``StepUpRequirement`` for ``SensitiveChange/disableSecondFactor``) with an authenticator
    /// code or a recovery code always, even beside a passkey. Every other session ends; this one
    /// stays and its user is read again.
    public func disableTOTP(proof: AccountProof) async throws {
        let client = client
        let request = StepUpProof(proof)
        try await authorized { try await client.disableTOTP(request, accessToken: $0) }
        await reloadUser()
    }

    /// ``disableTOTP(proof:)`` with the password and an authenticator `code` or a `recoveryCode`
    /// (give one).
    public func disableTOTP(password: String, code: String? = nil, recoveryCode: String? = nil) async throws {
        try await disableTOTP(proof: .password(password, code: code, recoveryCode: recoveryCode))
    }

    /// Reads the user again after the factor changed; a failure here must not fail the change
    /// (its recovery codes must still reach the person), the next `me()` catches up.
    private func reloadUser() async {
        _ = try? await me()
    }
}
