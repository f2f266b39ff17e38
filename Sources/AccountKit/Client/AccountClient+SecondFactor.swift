import AccountAPI
import Foundation

extension AccountClient {
    // MARK: Second factor

    /// `POST /auth/mfa/verify`: answers a login's ``AccountError/secondFactorRequired(_:)`` with
    /// an authenticator code or a recovery code; the same token pair as a login.
    ///
    /// A wrong code throws ``AccountError/codeRejected(_:)`` with ``ErrorCode/codeInvalid`` (it
    /// counts on the challenge and in the account's login back-off); a challenge past its 5
    /// minutes or spent by 5 wrong codes throws ``AccountError/secondFactorChallengeEnded(_:)``.
    /// ``SessionManager/verifySecondFactor(code:)`` keeps the challenge and stores the pair.
    public func verifySecondFactor(_ request: SecondFactorVerifyRequest) async throws -> TokenPair {
        do {
            return try await call(.verifySecondFactor, body: request)
        } catch AccountError.codeRejected(let code) where code == .codeExpired || code == .tooManyAttempts {
            throw AccountError.secondFactorChallengeEnded(code)
        }
    }

    /// `POST /auth/mfa/totp`: starts enrolling an authenticator app with the step-up proof (a new
    /// call replaces an unconfirmed secret); nothing changes for login until
    /// ``confirmTOTP(_:accessToken:)``.
    ///
    /// A wrong password throws ``AccountError/invalidCredentials``; a factor already on,
    /// ``AccountError/conflict(_:)`` with ``ErrorCode/mfaAlreadyEnabled``; a proof short of what
    /// the account needs (a passkey, for an account that holds one), ``AccountError/proofRequired(_:)``.
    public func enrollTOTP(_ request: TOTPEnrollRequest, accessToken: String) async throws -> TOTPEnrollment {
        try await call(.enrollTOTP, body: request, accessToken: accessToken, stepUp: true)
    }

    /// `POST /auth/mfa/totp/confirm`: the app's current code turns the factor on; the reply's ten
    /// recovery codes are shown once. Every other session of the account ends.
    ///
    /// A wrong code throws ``AccountError/codeRejected(_:)``; no enrolment started,
    /// ``AccountError/conflict(_:)`` with ``ErrorCode/mfaNotEnabled``.
    public func confirmTOTP(_ request: TOTPConfirmRequest, accessToken: String) async throws -> RecoveryCodes {
        try await call(.confirmTOTP, body: request, accessToken: accessToken)
    }

    /// `POST /auth/mfa/recovery-codes`: with the step-up proof and an authenticator `code` always,
    /// a new set of recovery codes; the old set stops working.
    public func replaceRecoveryCodes(_ request: RecoveryCodesRequest, accessToken: String) async throws -> RecoveryCodes {
        try await call(.replaceRecoveryCodes, body: request, accessToken: accessToken, stepUp: true)
    }

    /// `DELETE /auth/mfa/totp`: with the step-up proof and an authenticator code or a recovery code
    /// always, turns the second factor off; every other session of the account ends.
    public func disableTOTP(_ request: TOTPDisableRequest, accessToken: String) async throws {
        _ = try await send(.disableTOTP, body: request, accessToken: accessToken, stepUp: true)
    }
}
