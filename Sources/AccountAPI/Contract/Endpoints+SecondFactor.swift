extension Endpoint {
    /// Authenticator apps (TOTP) and recovery codes.
    static let secondFactor: [Endpoint] = [enrollTOTP, confirmTOTP, verifySecondFactor, replaceRecoveryCodes, disableTOTP]

    /// `POST /auth/mfa/totp`: Start enrolling an authenticator app.
    public static let enrollTOTP = Endpoint(
        .post, "/auth/mfa/totp", operationId: "enrollTOTP", tag: "Second factor", summary: "Start enrolling an authenticator app",
        details: """
            With \(stepUpProof) A new secret for an authenticator app \
            (RFC 6238: SHA-1, 6 digits, 30-second steps). Nothing changes for login until `POST /auth/mfa/totp/confirm`; a new \
            call replaces an unconfirmed secret. The secret is stored sealed with the server's key (itself sealed by \
            `--secret-key-file` when given), never logged.
            """,
        auth: .bearer, request: "TOTPEnrollRequest",
        replies: [.init(status: 200, description: "The secret and its `otpauth://` URI.", body: .schema("TOTPEnrollment"))],
        errors: stepUpErrors([
            409: "`mfa_already_enabled`: turn the second factor off first.",
            503: "`service_unavailable`.",
        ]))

    /// `POST /auth/mfa/totp/confirm`: Turn the authenticator app on.
    public static let confirmTOTP = Endpoint(
        .post, "/auth/mfa/totp/confirm", operationId: "confirmTOTP", tag: "Second factor", summary: "Turn the authenticator app on",
        details: """
            The code the app shows for the new secret turns the second factor on: from now on a login needs it after the \
            password. The reply has ten recovery codes, shown once. Every other session of the account ends, and its \
            owner gets a notice mail. The code is checked under the account's login back-off (the try is counted first).
            """,
        auth: .bearer, request: "TOTPConfirmRequest",
        replies: [.init(status: 200, description: "On; the recovery codes.", body: .schema("RecoveryCodes"))],
        errors: [
            400: "`invalid_request`, or `code_invalid`: the code is not the secret's for this time (±1 step); it counts in the account's login back-off.",
            409: "`mfa_not_enabled`: no enrolment was started; `mfa_already_enabled`: it is on already.",
            429: "`rate_limited`: the account is backed off after failed password, code or proof checks, or the address limit; with `Retry-After`.",
            503: "`service_unavailable`.",
        ])

    /// `POST /auth/mfa/verify`: Finish a login with the second factor.
    public static let verifySecondFactor = Endpoint(
        .post, "/auth/mfa/verify", operationId: "verifySecondFactor", tag: "Second factor", summary: "Finish a login with the second factor",
        details: """
            Answers a login's `403 mfa_required` with its `mfa_token` and an authenticator `code` or a `recovery_code`. The \
            reply is a login's: a new session whose access tokens carry `amr` `["pwd","otp"]` (a code) or \
            `["pwd","recovery_code"]` (a recovery code), kept through refresh. An authenticator code is accepted once \
            (the same code again in its step, or an earlier step's, is `code_invalid`), within one 30-second step of \
            clock skew either side. A wrong code is `code_invalid` and counts on the token (five spend it) and in the \
            account's login back-off, shared with wrong passwords (a backed-off account gets `429 rate_limited` before \
            the code is looked at). A recovery code works once; its owner gets a notice mail with how many are left.
            """,
        request: "SecondFactorVerifyRequest",
        replies: [.init(status: 200, description: "Signed in: a new session.", body: .schema("TokenPair"))],
        errors: [
            400: "`invalid_request` (also for both `code` and `recovery_code`); `code_invalid`: a wrong code, or an `mfa_token` that is unknown or was used; `code_expired`: the `mfa_token` is older than 5 minutes (log in again).",
            422: "`validation_failed`: `mfa_token` or `code` missing, or a malformed `code` or `recovery_code`.",
            403: "`account_disabled`: an operator disabled the account after the password was checked; no session.",
            429: "`too_many_attempts`: five wrong codes spent the `mfa_token` (log in again); `rate_limited`: the account is backed off, with `Retry-After`.",
            503: "`service_unavailable`.",
        ])

    /// `POST /auth/mfa/recovery-codes`: A new set of recovery codes.
    public static let replaceRecoveryCodes = Endpoint(
        .post, "/auth/mfa/recovery-codes", operationId: "replaceRecoveryCodes", tag: "Second factor", summary: "A new set of recovery codes",
        details: """
            With \(stepUpProof) An authenticator `code` always. Ten new \
            recovery codes; the old set stops working. The owner gets a notice mail naming the change, the device and the address; the security history has `recovery_codes_replaced`.
            """,
        auth: .bearer, request: "RecoveryCodesRequest",
        replies: [.init(status: 200, description: "The new codes, shown once.", body: .schema("RecoveryCodes"))],
        errors: stepUpErrors([
            409: "`mfa_not_enabled`.",
            503: "`service_unavailable`.",
        ]))

    /// `DELETE /auth/mfa/totp`: Turn the second factor off.
    public static let disableTOTP = Endpoint(
        .delete, "/auth/mfa/totp", operationId: "disableTOTP", tag: "Second factor", summary: "Turn the second factor off",
        details: """
            With \(stepUpProof) An authenticator `code` or a `recovery_code` always. \
            The authenticator and every recovery code are removed, logins need only the password again, every other session \
            ends. The owner gets a notice mail naming the change, the device and the address; the security history has `mfa_disabled`.
            """,
        auth: .bearer, request: "TOTPDisableRequest",
        replies: [.init(status: 204, description: "Off.")],
        errors: stepUpErrors([
            409: "`mfa_not_enabled`.",
            503: "`service_unavailable`.",
        ]))
}
