extension Endpoint {
    /// Sign-up, email codes, login, refresh and logout.
    static let signIn: [Endpoint] = [signUp, requestEmailCode, verifyEmail, logIn, refresh, logOut]

    /// `POST /auth/signup`: Create an account.
    public static let signUp = Endpoint(
        .post, "/auth/signup", operationId: "signUp", tag: "Sign-up", summary: "Create an account",
        details: """
            Details-first flow: without `email_verification_token` no account is made yet. A pending sign-up holds \
            the nickname for 24 hours, a code is mailed and the reply is 202; the account is made, verified, when \
            the code is verified with `POST /auth/email/verify` (before that, a login with this password answers \
            `403 email_not_verified`). A sign-up for the same address replaces its pending one. The reply's \
            `signup_token` names this sign-up: verifying with it, a newer sign-up of the address (someone else's, with \
            their password) can neither become the account nor sign in the device that made this one. A sign-up that \
            replaces one made by another client (another `User-Agent` or address) is contested: its code completes it \
            only with its `signup_token` (the reply is the same either way). The code's mail names the nickname being \
            signed up. Email-first flow: \
            with a token from `POST /auth/email/verify` the account starts verified and is signed in (201). \
            An address that already has an account is handled exactly like a free one, in the reply, its time and \
            every later request: the nickname is held and the cooldown starts all the same, and its owner gets a \
            notice instead of a code (so its pending sign-up never becomes an account). A sign-up counts as a \
            `verify` code request: at most one a minute and 5 an hour per address (429 with `Retry-After`). \
            With `--allow-unverified-login` a free address's (unverified) account is made at once, so that it can \
            log in; there a login after sign-up does tell a taken address from a free one.
            """,
        request: "SignUpRequest",
        replies: [
            .init(status: 201, description: "Created, verified and signed in (email-first flow).", body: .schema("TokenPair")),
            .init(status: 202, description: "Pending until the mailed code is verified; the nickname is held.", body: .schema("SignUpAccepted")),
        ],
        errors: [
            400: "`invalid_request`; or, with a token, `code_invalid` (unknown, used or for another address) or `code_expired`.",
            409: "`username_taken`: an account has the nickname, or another address's pending sign-up holds it.",
            422: "`validation_failed`; with a token, `email` can be `taken` (the caller proved they own it).",
            429: "`rate_limited` (without a token: a code went to this address less than a minute ago, or 5 this hour; or the address limit), with `Retry-After`.",
            503: "`service_unavailable`.",
        ])

    /// `POST /auth/email/code`: Mail a one-time code.
    public static let requestEmailCode = Endpoint(
        .post, "/auth/email/code", operationId: "requestEmailCode", tag: "Sign-up", summary: "Mail a one-time code",
        details: """
            Mails a 6-digit code valid 10 minutes; a new code replaces the old one. The reply is the same whatever the \
            address: for `signup` a taken address gets a "you already have an account" notice instead; `verify` mails a \
            code for the address's pending sign-up or unverified account, and nothing otherwise. At most one request a \
            minute and 5 an hour per address and purpose (a sign-up counts as `verify`). Every message to an address, \
            of any kind, also shares one budget (one a minute, 5 an hour by default): a message over it is not sent, \
            and the reply does not say so.
            """,
        request: "EmailCodeRequest",
        replies: [.init(status: 202, description: "Accepted.", body: .schema("EmailCodeSent"))],
        errors: [
            422: "`validation_failed`: `purpose` is `invalid_choice` unless `signup` or `verify`.",
            429: "`rate_limited` (resend limit or address limit), with `Retry-After`.",
            503: "`service_unavailable`.",
        ])

    /// `POST /auth/email/verify`: Check a mailed code.
    public static let verifyEmail = Endpoint(
        .post, "/auth/email/verify", operationId: "verifyEmail", tag: "Sign-up", summary: "Check a mailed code",
        details: """
            On success the code is spent; a `verify` code makes the address's pending sign-up a verified account (or \
            marks an unverified account verified); and a single-use `email_verification_token` (30 minutes, this \
            address only) is returned for the email-first sign-up. If the pending sign-up's nickname was taken after \
            its hold ran out, no account is made: sign up with the token and another nickname. \
            A wrong code counts one try; after 5 the code is spent. \
            With `sign_in: true` (opt-in; without it the reply is as before), a code that makes a pending sign-up's \
            account also signs it in, so an app need not keep the password after sign-up: the reply's `session` is \
            the new session's token pair, as a login returns it (the session records the `User-Agent`; the security \
            log says `login_succeeded` with `via` `email_verify`, and `account_logins_total{outcome="signup_verified"}` \
            counts it). Only within `--verify-sign-in-window` seconds of the sign-up (30 minutes by default; 0 turns it \
            off), and not while the address or nickname is backed off for failed logins; otherwise the reply has no \
            `session` and the password logs in. Never for a code that makes no account (an unverified account from \
            before, an email-first `signup` code, a stranger's sign-up of a taken address, which never completes). \
            The code is checked first, under its own 5 tries, so a wrong code gets the same reply with or without \
            `sign_in`. Send the `signup_token` of the sign-up's reply (optional; a token not of the reply's shape is \
            `422 validation_failed`, `signup_token` `invalid_format`, and the code is not tried). A token, sent with or \
            without `sign_in`, is checked once the code is right: when it does not name the address's current pending \
            sign-up (a newer sign-up of the address replaced the one it names, or it is another address's), the code \
            makes no account and opens no session; it is spent, the pending sign-up is dropped, and the reply is \
            `409 signup_superseded` (sign up again). Without a token the code completes the address's pending sign-up \
            (and signs it in when asked) unless that sign-up is contested: it replaced a live pending sign-up of the \
            address made by another client (another `User-Agent` or address), or one that was contested itself. Then \
            the right code without a token is answered `409 signup_superseded` the same way, so a stranger's sign-up \
            made over the owner's never becomes the owner's account; the owner signs up again, alone. A client's own \
            retry of its sign-up is not contested. A wrong code gets the same reply in every state.
            """,
        request: "EmailVerifyRequest",
        replies: [.init(status: 200, description: "Verified; with `session` when it also signed in.", body: .schema("EmailVerified"))],
        errors: [
            400: "`invalid_request`, `code_invalid` (wrong or no code) or `code_expired`.",
            409: "`username_taken`: another request took the pending sign-up's nickname at the same moment; the code was not spent. "
                + "`signup_superseded`: the code was right, but `signup_token` does not name the address's current pending "
                + "sign-up, or none was sent and that sign-up is contested; nothing was made, the code is spent and that "
                + "sign-up dropped: sign up again.",
            422: "`validation_failed`: `email` or `code` missing or malformed; `signup_token` `invalid_format` (not 43 "
                + "base64url characters). No code was tried.",
            429: "`too_many_attempts` (the code is spent) or `rate_limited`.",
            503: "`service_unavailable`.",
        ])

    /// `POST /auth/login`: Log in.
    public static let logIn = Endpoint(
        .post, "/auth/login", operationId: "logIn", tag: "Sessions", summary: "Log in",
        details: """
            By exactly one of `username`, `email` or `login`, and `password`. An unknown account and a wrong password \
            answer the same 401. `email_not_verified` comes only after a correct password: of an unverified account \
            while the server requires verified email (the default), or of a pending sign-up. After 5 failures in \
            15 minutes an account is backed off (429); password change and account deletion count on the same back-off.
            """,
        request: "LoginRequest",
        replies: [.init(status: 200, description: "Signed in: a new session.", body: .schema("TokenPair"))],
        errors: [
            400: "`invalid_request`, also when more than one of `username`, `email` and `login` is sent.",
            401: "`invalid_credentials`.",
            403: "`email_not_verified`: the password is right, but the address is not verified yet (or the sign-up waits for its code). "
                + "`mfa_required`: the password is right and the account has a second factor; the problem carries `mfa_token` "
                + "(single use, 5 minutes, 5 wrong codes) and `methods`: answer with `POST /auth/mfa/verify`. "
                + "`account_disabled`: the password is right, but an operator disabled the account. "
                + "A wrong password is the usual 401, so this tells only what the password proved.",
            429: "`rate_limited` (account back-off or address limit), with `Retry-After`.",
            503: "`service_unavailable` (also when the password-hashing queue is full).",
        ])

    /// `POST /auth/refresh`: Trade a refresh token for a new pair.
    public static let refresh = Endpoint(
        .post, "/auth/refresh", operationId: "refresh", tag: "Sessions", summary: "Trade a refresh token for a new pair",
        details: """
            Every refresh returns a new `refresh`; the old one is spent. Presenting a spent token again revokes the \
            whole session (`refresh_token_reused`), except within 10 seconds of its first use by the same client \
            (the same `User-Agent` and client address), which gets the same new pair again; from any other client \
            it is reuse.
            """,
        request: "RefreshRequest",
        replies: [.init(status: 200, description: "A new pair.", body: .schema("TokenPair"))],
        errors: [
            401: "`token_invalid` (unknown token), `token_expired` (session idle or too old), `session_revoked` or `refresh_token_reused`.",
            422: "`validation_failed`: `refresh` is `required`.",
            503: "`service_unavailable`; also when another server rotated the same token at the same moment (retry).",
        ])

    /// `POST /auth/logout`: End sessions.
    public static let logOut = Endpoint(
        .post, "/auth/logout", operationId: "logOut", tag: "Sessions", summary: "End sessions",
        auth: .bearer,
        parameters: [.init(
            "scope", in: .query,
            description: "`local`: this session; `others`: every other session of the account; `global`: all of them.",
            value: .string(choices: ["local", "others", "global"], defaultValue: "local"))],
        replies: [.init(status: 204, description: "Ended.")],
        errors: [400: "`invalid_request`: `scope` is not `local`, `others` or `global`.", 503: "`service_unavailable`."])
}
