extension Operation {
    /// Passkeys (WebAuthn Level 3) and the association file iOS reads.
    static let passkeys: [Operation] = [
        Operation(
            method: "post", path: "/auth/passkeys/register/options", id: "passkeyRegistrationOptions", tag: "Passkeys",
            summary: "Options to make a passkey",
            description: """
                `PublicKeyCredentialCreationOptionsJSON` for the caller: a new challenge (single use, 5 minutes, stored so \
                every server on the database knows it), a discoverable credential with user verification required, \
                attestation `none`, algorithms EdDSA, ES256 and RS256, and the account's passkeys as `excludeCredentials`. \
                No body is read.
                """,
            authenticated: true,
            successes: [.init(status: 200, description: "The options.", schema: Schema.ref("PasskeyCreationOptions"))],
            errors: [409: "`passkey_limit_reached`: the account holds 20 passkeys.", 503: "`service_unavailable`."]),
        Operation(
            method: "post", path: "/auth/passkeys/register", id: "registerPasskey", tag: "Passkeys", summary: "Add a passkey",
            description: """
                The `RegistrationResponseJSON` that `create()` made for the options' challenge, with a device name, and the step-up proof (`StepUpProof`: a passkey assertion, or the password with a code while the second factor is on; \
                a passkey for an account that holds one and no authenticator app), checked under the account's login back-off. A passkey never proves its own addition. Checked as \
                WebAuthn §7.1 lists it: `type` `webauthn.create`, the challenge (issued to this account for registering; spent \
                by this request whatever follows), an origin of `--webauthn-origin`, `rpIdHash` of `--webauthn-rp-id`, user \
                presence and verification, ES256/EdDSA/RS256 keys (points on their curve, RSA 2048–8192 bits), attestation \
                `none` or `packed` self-attestation (its signature checked, never trusted more than `none`), the backup flags \
                stored. The owner gets a notice mail naming the change, the device and the address; the security history has `passkey_added`.
                """,            authenticated: true, body: "PasskeyRegisterRequest",
            successes: [.init(status: 201, description: "Added.", schema: Schema.ref("Passkey"))],
            errors: StepUpSchemas.errors([
                400: "`challenge_invalid`: the registration challenge is unknown, used, or not this account's; `challenge_expired`; `passkey_invalid`: a WebAuthn check failed (the log's `passkey_refused` line names it).",
                409: "`passkey_exists`: the credential is registered already (to this or another account).",
                422: "`name` missing, too long or with control characters, or `credential` missing.",
                503: "`service_unavailable`.",
            ])),
        Operation(
            method: "post", path: "/auth/passkeys/login/options", id: "passkeyLoginOptions", tag: "Passkeys", summary: "Options to log in with a passkey",
            description: """
                `PublicKeyCredentialRequestOptionsJSON` with a new challenge (single use, 5 minutes) and no \
                `allowCredentials`: no account is named, the device offers the passkeys it holds for this RP. No body is read.
                """,
            successes: [.init(status: 200, description: "The options.", schema: Schema.ref("PasskeyRequestOptions"))],
            errors: [503: "`service_unavailable`."]),
        Operation(
            method: "post", path: "/auth/passkeys/login", id: "logInWithPasskey", tag: "Passkeys", summary: "Log in with a passkey",
            description: """
                The `AuthenticationResponseJSON` that `get()` made for the options' challenge. Checked as WebAuthn §7.2 lists \
                it (type `webauthn.get`, the login challenge, origin, `rpIdHash`, user presence and verification, backup \
                eligibility unchanged, the signature over authenticator data and the client data's hash, a `userHandle` that \
                is the owner's), and the signature counter: when it or the stored one is non-zero it must grow, or the login \
                is refused and logged as `passkey_counter_regressed` (a cloned authenticator). The reply is a login's; the \
                passkey is the second factor too, so no `mfa_required`, and the session's `amr` is `["swk","user","mfa"]` \
                for a synced passkey or `["hwk","user","mfa"]` for one bound to its device.
                """,
            body: "PasskeyLoginRequest",
            successes: [.init(status: 200, description: "Signed in: a new session.", schema: Schema.ref("TokenPair"))],
            errors: [
                400: "`invalid_request`; `challenge_invalid`: the challenge is unknown, used, or not a login's; `challenge_expired`.",
                401: "`passkey_invalid`: no account has the passkey, or a WebAuthn check failed (the log's `passkey_refused` line names it).",
                422: "`validation_failed`: `credential` missing.",
                503: "`service_unavailable`.",
            ]),
        Operation(
            method: "post", path: "/auth/passkeys/reauth/options", id: "passkeyReauthenticationOptions", tag: "Passkeys",
            summary: "Options to prove a sensitive change with a passkey",
            description: """
                `PublicKeyCredentialRequestOptionsJSON` with a new challenge (single use, 5 minutes, for this session and \
                account only) and the account's passkeys as `allowCredentials`. The response `get()` makes goes as \
                `passkey_assertion` in the body of a sensitive change (account deletion, the second factor's changes, passkey \
                removal) instead of `password`: a challenge unknown, used or another session's is `400 challenge_invalid`, an \
                old one `400 challenge_expired`, and any other failed check (another account's passkey, user verification \
                missing, a counter going back) `403 passkey_invalid`. No body is read.
                """,
            authenticated: true,
            successes: [.init(status: 200, description: "The options.", schema: Schema.ref("PasskeyRequestOptions"))],
            errors: [404: "`not_found`: the account has no passkey.", 503: "`service_unavailable`."]),
        Operation(
            method: "get", path: "/auth/passkeys", id: "listPasskeys", tag: "Passkeys", summary: "The account's passkeys",
            authenticated: true,
            successes: [.init(status: 200, description: "Oldest first.", schema: Schema.ref("PasskeyList"))],
            errors: [503: "`service_unavailable`."]),
        Operation(
            method: "delete", path: "/auth/passkeys/{id}", id: "deletePasskey", tag: "Passkeys", summary: "Remove a passkey",
            description: """
                With the step-up proof (`StepUpProof`: a passkey assertion, or the password with a code while the second factor is on; \
                a passkey for an account that holds one and no authenticator app), checked under the account's login back-off. The owner gets a notice mail naming the change, the device and the address; the security history has `passkey_removed`.
                """,            authenticated: true, body: "PasskeyDeleteRequest",
            parameters: [[
                "name": "id", "in": "path", "required": true, "description": "The passkey's id (from `GET /auth/passkeys`).",
                "schema": FieldSchemas.uuid,
            ]],
            successes: [.init(status: 204, description: "Removed.")],
            errors: StepUpSchemas.errors([
                404: "`not_found`: the account has no passkey with this id (another account's is 404 too).",
                503: "`service_unavailable`.",
            ])),
        Operation(
            method: "get", path: "/.well-known/apple-app-site-association", id: "appleAppSiteAssociation", tag: "Discovery",
            summary: "Which iOS apps may use this domain's passkeys",
            description: """
                `{"webcredentials":{"apps":[…]}}` with every `--apple-app-id` (`TEAMID.bundle.id`; empty without one), so an \
                app whose associated domains list `webcredentials:<this host>` may make and use passkeys for the RP id. Serve \
                it over HTTPS on the RP id's host.
                """,
            successes: [.init(status: 200, description: "The association file.", schema: Schema.ref("AppleAppSiteAssociation"))]),
    ]
}
