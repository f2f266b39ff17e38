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
                With the current password, checked under the account's login back-off (failures here and at login count \
                together), or another proof (`passkey_assertion`; an Apple token for an account without a password). While a second factor is on, an authenticator `code` or a `recovery_code` too (a wrong one \
                counts on the same back-off). The account, its sessions, codes and second factor are gone; its nickname and \
                address are free again.
                """,
            authenticated: true, body: "DeleteAccountRequest",
            successes: [.init(status: 204, description: "Deleted.")],
            errors: [
                400: "`invalid_request` (also for both `code` and `recovery_code`), or `code_invalid`: the second factor is wrong; `challenge_invalid` or `challenge_expired`: the challenge of a `passkey_assertion`.",
                401: "A token error: `token_invalid`, `token_expired` or `session_revoked` (with a Bearer challenge).",
                403: "`invalid_credentials`: the password is wrong; the token is fine, so no Bearer challenge and the session stays. For an account without a password: `apple_token_invalid`, the Apple identity token is not a fresh one of its linked Apple ID, or was accepted before. `passkey_invalid`: a `passkey_assertion` failed a check (another account's passkey included).",
                429: "`rate_limited`: the account is backed off after failed password checks (here, at login or at password change), or the address limit; with `Retry-After`.",
                503: "`service_unavailable`.",
            ]),
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
                With the current password, checked under the account's login back-off (failures here and at login count \
                together), or another proof (`passkey_assertion`; an Apple token for an account without a password). While a second factor is on, an authenticator `code` or a `recovery_code` too (a wrong one \
                counts on the same back-off). Every other session is revoked; this one stays.
                """,
            authenticated: true, body: "ChangePasswordRequest",
            successes: [.init(status: 204, description: "Changed.")],
            errors: [
                400: "`invalid_request` (also for both `code` and `recovery_code`), or `code_invalid`: the second factor is wrong.",
                401: "A token error: `token_invalid`, `token_expired` or `session_revoked` (with a Bearer challenge).",
                403: "`invalid_credentials`: the current password is wrong; the token is fine, so no Bearer challenge and the session stays.",
                429: "`rate_limited`: the account is backed off after failed password checks (here, at login or at account deletion), or the address limit; with `Retry-After`.",
                503: "`service_unavailable`.",
            ]),
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
