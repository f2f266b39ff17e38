/// How a login attempt ended, for `account_logins_total{outcome}`.
package enum LoginOutcome: String, CaseIterable, Sendable {
    case success
    case invalidCredentials = "invalid_credentials"
    case emailNotVerified = "email_not_verified"
    case rateLimited = "rate_limited"
    /// Signed in by verifying a details-first sign-up's code (`POST /auth/email/verify` with
    /// `sign_in: true`), without a password.
    case signUpVerified = "signup_verified"
    /// A right password of an account with a second factor: `403 mfa_required`, no session yet.
    case mfaRequired = "mfa_required"
    /// Signed in by answering `mfa_required` (`POST /auth/mfa/verify`).
    case mfaVerified = "mfa_verified"
}

/// How presenting a refresh token ended, for `account_refreshes_total{outcome}`.
package enum RefreshOutcome: String, CaseIterable, Sendable {
    /// A new pair for an unused token.
    case rotated
    /// The same new pair again, for a repeat inside the grace window.
    case repeated
    /// A used token outside the grace window: the session was revoked.
    case reused
    /// The token's session was already revoked.
    case revoked
    /// The token's session outlived its idle or absolute lifetime.
    case expired
    /// Unknown or malformed token.
    case invalid
}
