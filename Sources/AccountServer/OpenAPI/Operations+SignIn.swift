extension Operation {
    /// Sign-up, email codes, login, refresh and logout.
    static let signIn: [Operation] = [
        Operation(
            method: "post", path: "/auth/signup", id: "signUp", tag: "Sign-up", summary: "Create an account",
            description: """
                Details-first flow: without `email_verification_token` the account starts unverified, a code is mailed \
                and the reply is 202; verify with `POST /auth/email/verify`. Email-first flow: with a token from \
                `POST /auth/email/verify` the account starts verified and is signed in (201). An address that already \
                has an account answers exactly like a free one (its owner gets a notice instead of a code).
                """,
            body: "SignUpRequest",
            successes: [
                .init(status: 201, description: "Created, verified and signed in (email-first flow).", schema: Schema.ref("TokenPair")),
                .init(status: 202, description: "Created unverified; a code was mailed.", schema: Schema.ref("SignUpAccepted")),
            ],
            errors: [
                400: "`invalid_request`; or, with a token, `code_invalid` (unknown, used or for another address) or `code_expired`.",
                409: "`username_taken`.",
                422: "`validation_failed`; with a token, `email` can be `taken` (the caller proved they own it).",
                503: "`service_unavailable`.",
            ]),
        Operation(
            method: "post", path: "/auth/email/code", id: "requestEmailCode", tag: "Sign-up", summary: "Mail a one-time code",
            description: """
                Mails a 6-digit code valid 10 minutes; a new code replaces the old one. The reply is the same whatever the \
                address: for `signup` a taken address gets a "you already have an account" notice instead; for `verify` an \
                address without an unverified account gets nothing. At most one code a minute and 5 an hour per address and purpose.
                """,
            body: "EmailCodeRequest",
            successes: [.init(status: 202, description: "Accepted.", schema: Schema.ref("EmailCodeSent"))],
            errors: [
                422: "`validation_failed`: `purpose` is `invalid_choice` unless `signup` or `verify`.",
                429: "`rate_limited` (resend limit or address limit), with `Retry-After`.",
                503: "`service_unavailable`.",
            ]),
        Operation(
            method: "post", path: "/auth/email/verify", id: "verifyEmail", tag: "Sign-up", summary: "Check a mailed code",
            description: """
                On success the code is spent, an unverified account with this address becomes verified, and a single-use \
                `email_verification_token` (30 minutes, this address only) is returned for the email-first sign-up. \
                A wrong code counts one try; after 5 the code is spent.
                """,
            body: "EmailVerifyRequest",
            successes: [.init(status: 200, description: "Verified.", schema: Schema.ref("EmailVerified"))],
            errors: [
                400: "`invalid_request`, `code_invalid` (wrong or no code) or `code_expired`.",
                429: "`too_many_attempts` (the code is spent) or `rate_limited`.",
                503: "`service_unavailable`.",
            ]),
        Operation(
            method: "post", path: "/auth/login", id: "logIn", tag: "Sessions", summary: "Log in",
            description: """
                By exactly one of `username`, `email` or `login`, and `password`. An unknown account and a wrong password \
                answer the same 401. `email_not_verified` comes only after a correct password, while the server requires \
                verified email (the default). After 5 failures in 15 minutes an account is backed off (429).
                """,
            body: "LoginRequest",
            successes: [.init(status: 200, description: "Signed in: a new session.", schema: Schema.ref("TokenPair"))],
            errors: [
                400: "`invalid_request`, also when more than one of `username`, `email` and `login` is sent.",
                401: "`invalid_credentials`.",
                403: "`email_not_verified`.",
                429: "`rate_limited` (account back-off or address limit), with `Retry-After`.",
                503: "`service_unavailable` (also when the password-hashing queue is full).",
            ]),
        Operation(
            method: "post", path: "/auth/refresh", id: "refresh", tag: "Sessions", summary: "Trade a refresh token for a new pair",
            description: """
                Every refresh returns a new `refresh`; the old one is spent. Presenting a spent token again revokes the \
                whole session (`refresh_token_reused`), except within 10 seconds of its first use by the same client \
                (the same `User-Agent` and client address), which gets the same new pair again; from any other client \
                it is reuse.
                """,
            body: "RefreshRequest",
            successes: [.init(status: 200, description: "A new pair.", schema: Schema.ref("TokenPair"))],
            errors: [
                401: "`token_invalid` (unknown token), `token_expired` (session idle or too old), `session_revoked` or `refresh_token_reused`.",
                422: "`validation_failed`: `refresh` is `required`.",
                503: "`service_unavailable`; also when another server rotated the same token at the same moment (retry).",
            ]),
        Operation(
            method: "post", path: "/auth/logout", id: "logOut", tag: "Sessions", summary: "End sessions",
            authenticated: true,
            parameters: [[
                "name": "scope", "in": "query", "required": false,
                "description": "`local`: this session; `others`: every other session of the account; `global`: all of them.",
                "schema": Schema.string(choices: ["local", "others", "global"]).merging(["default": "local"]),
            ]],
            successes: [.init(status: 204, description: "Ended.")],
            errors: [400: "`invalid_request`: `scope` is not `local`, `others` or `global`.", 503: "`service_unavailable`."]),
    ]
}
