extension Operation {
    /// The signed-in account, its sessions and its password.
    static let account: [Operation] = [
        Operation(
            method: "get", path: "/auth/me", id: "getMe", tag: "Account", summary: "The signed-in account", authenticated: true,
            successes: [.init(status: 200, description: "The account.", schema: Schema.ref("User"))],
            errors: [503: "`service_unavailable`."]),
        Operation(
            method: "patch", path: "/auth/me", id: "updateMe", tag: "Account", summary: "Change the nickname or MBTI type",
            authenticated: true, body: "UpdateProfileRequest",
            successes: [.init(status: 200, description: "The changed account.", schema: Schema.ref("User"))],
            errors: [409: "`username_taken`.", 503: "`service_unavailable`."]),
        Operation(
            method: "delete", path: "/auth/me", id: "deleteMe", tag: "Account", summary: "Delete the account",
            description: """
                With the step-up proof (`StepUpProof`: a passkey assertion, or the password with a code while the second factor is on; \
                a passkey for an account that holds one and no authenticator app), checked under the account's login back-off. The account, its sessions, codes and second factor \
                are gone; its nickname and address are free again. The owner gets a notice mail at the address it had.
                """,            authenticated: true, body: "DeleteAccountRequest",
            successes: [.init(status: 204, description: "Deleted.")],
            errors: StepUpSchemas.errors([
                401: "A token error: `token_invalid`, `token_expired` or `session_revoked` (with a Bearer challenge).",
                503: "`service_unavailable`.",
            ])),
        Operation(
            method: "get", path: "/auth/sessions", id: "listSessions", tag: "Sessions", summary: "The account's live sessions",
            authenticated: true,
            successes: [.init(status: 200, description: "Newest first; the caller's own is `current`.", schema: Schema.ref("SessionList"))],
            errors: [503: "`service_unavailable`."]),
        Operation(
            method: "delete", path: "/auth/sessions/{id}", id: "revokeSession", tag: "Sessions", summary: "End one session",
            authenticated: true,
            parameters: [[
                "name": "id", "in": "path", "required": true, "description": "The session's id (from `GET /auth/sessions`).",
                "schema": FieldSchemas.uuid,
            ]],
            successes: [.init(status: 204, description: "Ended.")],
            errors: [404: "`not_found`: no live session of the caller's account has this id (another account's is 404 too).", 503: "`service_unavailable`."]),
        Operation(
            method: "post", path: "/auth/password/change", id: "changePassword", tag: "Password", summary: "Change the password",
            description: """
                With the step-up proof (`StepUpProof`: a passkey assertion, or the password with a code while the second factor is on; \
                a passkey for an account that holds one and no authenticator app), checked under the account's login back-off. The password is `current_password` here. Every \
                other session is revoked; this one stays. The owner gets a notice mail naming the change, the device and the address; the security history has `password_changed`.
                """,            authenticated: true, body: "ChangePasswordRequest",
            successes: [.init(status: 204, description: "Changed.")],
            errors: StepUpSchemas.errors([
                401: "A token error: `token_invalid`, `token_expired` or `session_revoked` (with a Bearer challenge).",
                422: "`new_password` missing or breaking a password rule.",
                503: "`service_unavailable`.",
            ])),
        Operation(
            method: "post", path: "/auth/password/reset", id: "requestPasswordReset", tag: "Password", summary: "Mail a password-reset code",
            description: """
                Answers 202 whether or not the address has an account; only an account's address gets a code. Same resend \
                limits as other codes, and the code's mail shares the address's budget with every other message.
                """,
            body: "PasswordResetRequest",
            successes: [.init(status: 202, description: "Accepted.", schema: Schema.ref("EmailCodeSent"))],
            errors: [429: "`rate_limited` (resend limit or address limit), with `Retry-After`.", 503: "`service_unavailable`."]),
        Operation(
            method: "post", path: "/auth/password/reset/confirm", id: "confirmPasswordReset", tag: "Password",
            summary: "Set a new password with a mailed code",
            description: """
                Every session ends (no automatic login); the address counts as verified, since the code reached it. \
                The code is checked first: until it is right, every reply and its time are the same for a registered and \
                an unknown address, whatever `new_password` is. Only after a right code is `new_password` checked against \
                the account's rules (422 keeps the code, so another password can follow) and hashed.
                """,
            body: "PasswordResetConfirmRequest",
            successes: [.init(status: 204, description: "Changed.")],
            errors: [
                400: "`invalid_request`, `code_invalid` (wrong code, or no account) or `code_expired`.",
                422: "`validation_failed`: a field is missing or malformed; after a right code, `new_password` may be refused (the code stays valid).",
                429: "`too_many_attempts` (the code is spent) or `rate_limited`.",
                503: "`service_unavailable`.",
            ]),
    ]
}
