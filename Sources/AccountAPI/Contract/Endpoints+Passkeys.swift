extension Endpoint {
    /// Passkeys (WebAuthn Level 3) and the association file iOS reads.
    static let passkeys: [Endpoint] = [passkeyRegistrationOptions, registerPasskey, passkeyLoginOptions, logInWithPasskey, passkeyReauthenticationOptions, listPasskeys, deletePasskey, appleAppSiteAssociation]

    /// `POST /auth/passkeys/register/options`: Options to make a passkey.
    public static let passkeyRegistrationOptions = Endpoint(
        .post, "/auth/passkeys/register/options", operationId: "passkeyRegistrationOptions", tag: "Passkeys",
        summary: "Options to make a passkey",
        details: """
            `PublicKeyCredentialCreationOptionsJSON` for the caller: a new challenge (single use, 5 minutes, stored so \
            every server on the database knows it), a discoverable credential with user verification required, \
            attestation `none`, algorithms EdDSA, ES256 and RS256, and the account's passkeys as `excludeCredentials`. \
            No body is read.
            """,
        auth: .bearer,
        replies: [.init(status: 200, description: "The options.", body: .schema("PasskeyCreationOptions"))],
        errors: [409: "`passkey_limit_reached`: the account holds 20 passkeys.", 503: "`service_unavailable`."])

    /// `POST /auth/passkeys/register`: Add a passkey.
    public static let registerPasskey = Endpoint(
        .post, "/auth/passkeys/register", operationId: "registerPasskey", tag: "Passkeys", summary: "Add a passkey",
        details: """
            The `RegistrationResponseJSON` that `create()` made for the options' challenge, with a device name, and \(stepUpProof) A passkey never proves its own addition. Checked as \
            WebAuthn §7.1 lists it: `type` `webauthn.create`, the challenge (issued to this account for registering; spent \
            by this request whatever follows), an origin of `--webauthn-origin`, `rpIdHash` of `--webauthn-rp-id`, user \
            presence and verification, ES256/EdDSA/RS256 keys (points on their curve, RSA 2048–8192 bits), attestation \
            `none` or `packed` self-attestation (its signature checked, never trusted more than `none`), the backup flags \
            stored. The owner gets a notice mail naming the change, the device and the address; the security history has `passkey_added`.
            """,
        auth: .bearer, request: "PasskeyRegisterRequest",
        replies: [.init(status: 201, description: "Added.", body: .schema("Passkey"))],
        errors: stepUpErrors([
            400: "`challenge_invalid`: the registration challenge is unknown, used, or not this account's; `challenge_expired`; `passkey_invalid`: a WebAuthn check failed (the log's `passkey_refused` line names it).",
            409: "`passkey_exists`: the credential is registered already (to this or another account).",
            422: "`name` missing, too long or with control characters, or `credential` missing.",
            503: "`service_unavailable`.",
        ]))

    /// `POST /auth/passkeys/login/options`: Options to log in with a passkey.
    public static let passkeyLoginOptions = Endpoint(
        .post, "/auth/passkeys/login/options", operationId: "passkeyLoginOptions", tag: "Passkeys", summary: "Options to log in with a passkey",
        details: """
            `PublicKeyCredentialRequestOptionsJSON` with a new challenge (single use, 5 minutes) and no \
            `allowCredentials`: no account is named, the device offers the passkeys it holds for this RP. No body is read.
            """,
        replies: [.init(status: 200, description: "The options.", body: .schema("PasskeyRequestOptions"))],
        errors: [503: "`service_unavailable`."])

    /// `POST /auth/passkeys/login`: Log in with a passkey.
    public static let logInWithPasskey = Endpoint(
        .post, "/auth/passkeys/login", operationId: "logInWithPasskey", tag: "Passkeys", summary: "Log in with a passkey",
        details: """
            The `AuthenticationResponseJSON` that `get()` made for the options' challenge. Checked as WebAuthn §7.2 lists \
            it (type `webauthn.get`, the login challenge, origin, `rpIdHash`, user presence and verification, backup \
            eligibility unchanged, the signature over authenticator data and the client data's hash, a `userHandle` that \
            is the owner's), and the signature counter: when it or the stored one is non-zero it must grow, or the login \
            is refused and logged as `passkey_counter_regressed` (a cloned authenticator). The reply is a login's; the \
            passkey is the second factor too, so no `mfa_required`, and the session's `amr` is `["swk","user","mfa"]` \
            for a synced passkey or `["hwk","user","mfa"]` for one bound to its device.
            """,
        request: "PasskeyLoginRequest",
        replies: [.init(status: 200, description: "Signed in: a new session.", body: .schema("TokenPair"))],
        errors: [
            400: "`invalid_request`; `challenge_invalid`: the challenge is unknown, used, or not a login's; `challenge_expired`.",
            401: "`passkey_invalid`: no account has the passkey, or a WebAuthn check failed (the log's `passkey_refused` line names it).",
            422: "`validation_failed`: `credential` missing.",
            503: "`service_unavailable`.",
        ])

    /// `POST /auth/passkeys/reauth/options`: Options to prove a sensitive change with a passkey.
    public static let passkeyReauthenticationOptions = Endpoint(
        .post, "/auth/passkeys/reauth/options", operationId: "passkeyReauthenticationOptions", tag: "Passkeys",
        summary: "Options to prove a sensitive change with a passkey",
        details: """
            `PublicKeyCredentialRequestOptionsJSON` with a new challenge (single use, 5 minutes, for this session and \
            account only) and the account's passkeys as `allowCredentials`. The response `get()` makes goes as \
            `passkey_assertion` in the body of a sensitive change (account deletion, the second factor's changes, passkey \
            removal) instead of `password`: a challenge unknown, used or another session's is `400 challenge_invalid`, an \
            old one `400 challenge_expired`, and any other failed check (another account's passkey, user verification \
            missing, a counter going back) `403 passkey_invalid`. No body is read.
            """,
        auth: .bearer,
        replies: [.init(status: 200, description: "The options.", body: .schema("PasskeyRequestOptions"))],
        errors: [404: "`not_found`: the account has no passkey.", 503: "`service_unavailable`."])

    /// `GET /auth/passkeys`: The account's passkeys.
    public static let listPasskeys = Endpoint(
        .get, "/auth/passkeys", operationId: "listPasskeys", tag: "Passkeys", summary: "The account's passkeys",
        auth: .bearer,
        replies: [.init(status: 200, description: "Oldest first.", body: .schema("PasskeyList"))],
        errors: [503: "`service_unavailable`."])

    /// `DELETE /auth/passkeys/{id}`: Remove a passkey.
    public static let deletePasskey = Endpoint(
        .delete, "/auth/passkeys/{id}", operationId: "deletePasskey", tag: "Passkeys", summary: "Remove a passkey",
        details: """
            With \(stepUpProof) The owner gets a notice mail naming the change, the device and the address; the security history has `passkey_removed`.
            """,
        auth: .bearer, request: "PasskeyDeleteRequest",
        parameters: [.init("id", in: .path, required: true, description: "The passkey's id (from `GET /auth/passkeys`).", value: .uuid)],
        replies: [.init(status: 204, description: "Removed.")],
        errors: stepUpErrors([
            404: "`not_found`: the account has no passkey with this id (another account's is 404 too).",
            503: "`service_unavailable`.",
        ]))

    /// `GET /.well-known/apple-app-site-association`: Which iOS apps may use this domain's passkeys.
    public static let appleAppSiteAssociation = Endpoint(
        .get, "/.well-known/apple-app-site-association", operationId: "appleAppSiteAssociation", tag: "Discovery",
        summary: "Which iOS apps may use this domain's passkeys",
        details: """
            `{"webcredentials":{"apps":[…]}}` with every `--apple-app-id` (`TEAMID.bundle.id`; empty without one), so an \
            app whose associated domains list `webcredentials:<this host>` may make and use passkeys for the RP id. Serve \
            it over HTTPS on the RP id's host.
            """,
        replies: [.init(status: 200, description: "The association file.", body: .schema("AppleAppSiteAssociation"))])
}
