extension Endpoint {
    /// Sign in with Apple.
    static let apple: [Endpoint] = [signInWithApple, completeAppleSignUp, linkApple, unlinkApple]

    /// `POST /auth/apple`: Log in with Apple.
    public static let signInWithApple = Endpoint(
        .post, "/auth/apple", operationId: "signInWithApple", tag: "Sign in with Apple", summary: "Log in with Apple",
        details: """
            Apple's identity token and the raw nonce. The token is checked: RS256 under a key of Apple's JWKS \
            (`--apple-jwks-url`, cached, asked again for an unknown `kid` at most every 10 seconds), `iss` \
            `https://appleid.apple.com`, `aud` one of `--apple-client-id`, `exp` (at most a day ahead) and `iat` (60 seconds \
            of skew), `nonce` the SHA-256 hex of the raw nonce, `email_verified` true; and each token is accepted once, \
            on any server (a session, an `mfa_required` challenge or a continuation spends it). A linked Apple ID gets a login's reply, the session's \
            `amr` `["apple"]`; an account with an authenticator app gets `403 mfa_required` as at login. A new Apple user \
            gets `403 profile_required` with `continuation_token` (single use, 10 minutes), `expires_in` and `email` (the \
            address Apple gave, a private relay address included): finish with `POST /auth/apple/complete`. An address \
            an account has already gets `409 apple_link_required`: nothing is linked; log in to that account and link \
            Apple from it. Without `--apple-client-id`: `404 apple_not_configured`.
            """,
        request: "AppleSignInRequest",
        replies: [.init(status: 200, description: "Signed in: a new session.", body: .schema("TokenPair"))],
        errors: [
            401: "`apple_token_invalid`: a check of the identity token failed, or it was accepted before (the log's `apple_token_refused` line names which).",
            403: "`mfa_required` (with `mfa_token`, as at login); `profile_required` (with `continuation_token`, `expires_in`, `email`); `account_disabled`.",
            404: "`apple_not_configured`: this server has no `--apple-client-id`.",
            409: "`apple_link_required`: an account has this address; log in to it and link Apple.",
            422: "`validation_failed`: `identity_token` or `nonce` missing, or `nonce` too long.",
            503: "`service_unavailable`: Apple's keys could not be fetched, or the server is busy; with `Retry-After`.",
        ])

    /// `POST /auth/apple/complete`: Finish a new Apple user's sign-up.
    public static let completeAppleSignUp = Endpoint(
        .post, "/auth/apple/complete", operationId: "completeAppleSignUp", tag: "Sign in with Apple",
        summary: "Finish a new Apple user's sign-up",
        details: """
            The continuation token with a nickname and MBTI type, checked like sign-up's. `201` with a login's reply for \
            the new account: its address (Apple's) verified, no password (`has_password` false; set one with the password \
            reset by email), Apple linked. The token is spent by a success; a taken nickname leaves it usable.
            """,
        request: "AppleCompleteRequest",
        replies: [.init(status: 201, description: "Signed up and signed in.", body: .schema("TokenPair"))],
        errors: [
            400: "`invalid_request`; `code_invalid`: the continuation token is unknown or used; `code_expired`: its 10 minutes are over.",
            404: "`apple_not_configured`.",
            409: "`username_taken`; `apple_link_required`: an account took the address meanwhile.",
            422: "`validation_failed`: `username` or `mbti` as at sign-up, or `continuation_token` missing.",
            503: "`service_unavailable`.",
        ])

    /// `POST /auth/apple/link`: Link an Apple ID to the account.
    public static let linkApple = Endpoint(
        .post, "/auth/apple/link", operationId: "linkApple", tag: "Sign in with Apple", summary: "Link an Apple ID to the account",
        details: """
            A fresh identity token (checked as at `POST /auth/apple`, and spent: a token is accepted once) links its Apple ID \
            to the signed-in account, which may then log in with Apple; \(stepUpProof) The Apple ID being linked proves nothing. \
            Linking the Apple ID already linked is `200` again. The owner gets a notice mail naming the change, the device and the address; the security history has `apple_linked`.
            """,
        auth: .bearer, request: "AppleLinkRequest",
        replies: [.init(status: 200, description: "The account, `apple_linked` true.", body: .schema("User"))],
        errors: stepUpErrors([
            401: "The access token is missing, invalid or expired, or its session ended.",
            403: "`apple_token_invalid` for the token being linked (a check failed, or it was accepted before).",
            404: "`apple_not_configured`.",
            409: "`apple_already_linked`: the Apple ID is another account's, or this account has another Apple ID.",
            422: "`identity_token` or `nonce` missing.",
            503: "`service_unavailable`.",
        ]))

    /// `DELETE /auth/apple/link`: Unlink the account's Apple ID.
    public static let unlinkApple = Endpoint(
        .delete, "/auth/apple/link", operationId: "unlinkApple", tag: "Sign in with Apple", summary: "Unlink the account's Apple ID",
        details: """
            Unlinks it and revokes the grant at Apple (through the outbox, retried; skipped and logged without \
            `--apple-key-file`). Refused while Apple is the account's only way to log in. With \(stepUpProof) \
            The owner gets a notice mail naming the change, the device and the address; the security history has `apple_unlinked`.
            """,
        auth: .bearer, request: "AppleUnlinkRequest",
        replies: [.init(status: 204, description: "Unlinked.")],
        errors: stepUpErrors([
            404: "`not_found`: no Apple ID is linked.",
            409: "`last_sign_in_method`: the account has no password and no passkey.",
            503: "`service_unavailable`.",
        ]))
}
