/// A stable, machine-readable problem code (`code` in a problem+json body).
///
/// Open on purpose: a code added by a newer server decodes into a value an older app can still
/// carry and show, instead of failing to decode. There is a constant for every code this server
/// sends, plus ``emailTaken``, which the SDK uses for one kind of `validation_failed`.
///
/// ```swift
/// if problem.code == .rateLimited { … }
/// ```
public struct ErrorCode: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    /// The code as it appears on the wire (`"rate_limited"`).
    public let rawValue: String
    /// The code with this wire text, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The code with this wire text, known or not: `ErrorCode("rate_limited")`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The wire text.
    public var description: String { rawValue }

    /// 400: the body is not a JSON object of the expected types, or the request is malformed.
    public static let invalidRequest = ErrorCode("invalid_request")
    /// 422: one or more fields break the field rules; see `errors`.
    public static let validationFailed = ErrorCode("validation_failed")
    /// 401 at login: wrong identifier or password (never says which). 403 behind a valid token
    /// (password change, account deletion): the current password is wrong; the session is fine.
    public static let invalidCredentials = ErrorCode("invalid_credentials")
    /// 401: the access or refresh token is missing, malformed, forged, for another issuer, or
    /// unknown to the server (a refresh token of a deleted account or session).
    public static let tokenInvalid = ErrorCode("token_invalid")
    /// 401: the token or its session has expired.
    public static let tokenExpired = ErrorCode("token_expired")
    /// 401: an already used refresh token was presented; the whole session is revoked.
    public static let refreshTokenReused = ErrorCode("refresh_token_reused")
    /// 401: the session behind the token was logged out or revoked.
    public static let sessionRevoked = ErrorCode("session_revoked")
    /// 403: the password was right but the email address is not verified yet.
    public static let emailNotVerified = ErrorCode("email_not_verified")
    /// 404: no such resource.
    public static let notFound = ErrorCode("not_found")
    /// 405: the path exists but not with this method; see the `Allow` header.
    public static let methodNotAllowed = ErrorCode("method_not_allowed")
    /// 409: the nickname is already used by another account.
    public static let usernameTaken = ErrorCode("username_taken")
    /// 409 at `POST /auth/email/verify`: the code was right, but the address's pending sign-up is
    /// no longer the one whose `signup_token` came with it (a newer sign-up of the address replaced
    /// it, or the token is another address's). Nothing was made, the code is spent and the newer
    /// sign-up is dropped: sign up again.
    public static let signUpSuperseded = ErrorCode("signup_superseded")
    /// Never sent by the server as a problem's code: the SDK's name for a `422 validation_failed`
    /// whose only error is `email` `taken` (an email-first sign-up of an address that has had an
    /// account made meanwhile), so that it can be a conflict like ``usernameTaken``.
    public static let emailTaken = ErrorCode("email_taken")
    /// 411: a body sent chunked (`Transfer-Encoding`) instead of with `Content-Length`.
    public static let lengthRequired = ErrorCode("length_required")
    /// 413: the body is larger than the server accepts.
    public static let payloadTooLarge = ErrorCode("payload_too_large")
    /// 408: the request head (or body) did not arrive in time; the connection is closed.
    public static let requestTimeout = ErrorCode("request_timeout")
    /// 414: the request line or its query is longer than the server accepts.
    public static let uriTooLong = ErrorCode("uri_too_long")
    /// 431: the request has more header lines or header bytes than the server accepts.
    public static let headerFieldsTooLarge = ErrorCode("header_fields_too_large")
    /// 505: the request was not HTTP/1.x.
    public static let versionNotSupported = ErrorCode("version_not_supported")
    /// 415: a body that is not `application/json`.
    public static let unsupportedMediaType = ErrorCode("unsupported_media_type")
    /// 400: the one-time code (or verification token) is wrong.
    public static let codeInvalid = ErrorCode("code_invalid")
    /// 400: the one-time code (or verification token) has expired.
    public static let codeExpired = ErrorCode("code_expired")
    /// 429: too many wrong codes; the code is spent, ask for a new one.
    public static let tooManyAttempts = ErrorCode("too_many_attempts")
    /// 429: slow down; see `Retry-After`.
    public static let rateLimited = ErrorCode("rate_limited")
    /// 503: a dependency (the database) is unavailable; try again later.
    public static let serviceUnavailable = ErrorCode("service_unavailable")
    /// 500: something failed on the server.
    public static let internalError = ErrorCode("internal_error")
    /// 403 at login, after a right password: the account has a second factor; answer with
    /// `POST /auth/mfa/verify` and the problem's `mfa_token` (see `methods`).
    public static let mfaRequired = ErrorCode("mfa_required")
    /// 409: an authenticator app is already on; turn it off before enrolling another.
    public static let mfaAlreadyEnabled = ErrorCode("mfa_already_enabled")
    /// 409: no authenticator app is on (or, at confirm, none is being enrolled).
    public static let mfaNotEnabled = ErrorCode("mfa_not_enabled")
    /// 400 (registration) or 401 (login): the passkey's response failed WebAuthn's checks (origin,
    /// RP id, user verification, signature, counter, …), or at login no account has the passkey.
    /// Start the ceremony again with new options.
    public static let passkeyInvalid = ErrorCode("passkey_invalid")
    /// 409: this passkey (its credential id) is already registered.
    public static let passkeyExists = ErrorCode("passkey_exists")
    /// 409: the account holds the most passkeys it may (20); remove one first.
    public static let passkeyLimitReached = ErrorCode("passkey_limit_reached")
    /// 400: the response's challenge is unknown, already used, or not one issued for this step
    /// (or this account); ask for new options.
    public static let challengeInvalid = ErrorCode("challenge_invalid")
    /// 400: the challenge's 5 minutes are over; ask for new options.
    public static let challengeExpired = ErrorCode("challenge_expired")
    /// 403 at `/admin/api/...`: the signed-in account is not an operator (the admin role is
    /// granted only from the server's command line).
    public static let adminRequired = ErrorCode("admin_required")
    /// 403 at `/admin/api/...`: the operator's session was opened with a password alone; log in
    /// again with the second factor (the access token's `amr` must name one).
    public static let secondFactorRequired = ErrorCode("second_factor_required")
    /// 403 at login, after a right password: an operator disabled the account.
    public static let accountDisabled = ErrorCode("account_disabled")
    /// 403 at `POST /auth/apple`: Apple's user has no account yet. The problem carries
    /// `continuation_token` (single use, 10 minutes), `expires_in` and `email`; finish with
    /// `POST /auth/apple/complete` and a nickname and MBTI type.
    public static let profileRequired = ErrorCode("profile_required")
    /// 409 at `POST /auth/apple`: no account has this Apple user, but one has its address. Log in
    /// the usual way and link Apple from the profile; nothing was linked.
    public static let appleLinkRequired = ErrorCode("apple_link_required")
    /// 401 (403 where it proves a sensitive change): Apple's identity token failed a check
    /// (signature, key, issuer, audience, time, nonce, verified address). The reply never says which.
    public static let appleTokenInvalid = ErrorCode("apple_token_invalid")
    /// 409 at `POST /auth/apple/link`: this Apple user belongs to another account, or this account
    /// is linked to another Apple user.
    public static let appleAlreadyLinked = ErrorCode("apple_already_linked")
    /// 409 at `DELETE /auth/apple/link`: the account has no password and no passkey; unlinking
    /// Apple would leave no way to log in. Set a password (reset by email) or add a passkey first.
    public static let lastSignInMethod = ErrorCode("last_sign_in_method")
    /// 404 at `/auth/apple…`: this server has no Sign in with Apple (no `--apple-client-id`).
    public static let appleNotConfigured = ErrorCode("apple_not_configured")
}
