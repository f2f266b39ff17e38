import AccountAPI

/// The request schemas of Sign in with Apple, and the Apple proof a sensitive change may carry.
enum AppleSchemas {
    static let identityToken = Schema.string(
        "Apple's identity token (a JWT), as `ASAuthorizationAppleIDCredential.identityToken` gives it; at most 8 KiB.", minLength: 1)
    static let nonce = Schema.string(
        "The raw nonce whose SHA-256 (lower-case hex) the app put in its Apple request; at most 256 characters.",
        minLength: 1, maxLength: AppleIdentityVerifier.maximumNonceLength)
    static let authorizationCode = Schema.string(
        "Apple's one-time authorization code: exchanged at Apple's token endpoint (with `--apple-key-file`) for the refresh "
            + "token the server keeps sealed, to revoke the grant when the account is deleted.")

    /// `apple_identity_token` and `apple_nonce` (an account without a password), and
    /// `passkey_assertion` (any account): what may go where `password` would.
    static let proofFields: [String: JSONValue] = [
        "apple_identity_token": Schema.string(
            "For an account without a password (made with Apple), instead of `password`: an identity token of its linked Apple ID "
                + "issued in the last 10 minutes, not accepted before; spent with the change.", minLength: 1),
        "apple_nonce": Schema.string("The raw nonce of `apple_identity_token`.", minLength: 1),
        // Any account, instead of `password`: an assertion for `POST /auth/passkeys/reauth/options`.
        "passkey_assertion": Schema.ref("PasskeyAssertionCredential"),
    ]

    /// `properties` with ``proofFields``: a request where an account without a password gives an
    /// Apple proof instead.
    static func withProof(_ properties: [String: JSONValue]) -> [String: JSONValue] {
        properties.merging(proofFields) { first, _ in first }
    }

    static let proofDescription = "`password`; or `passkey_assertion`, an `AuthenticationResponseJSON` of one of the account's passkeys "
        + "for a challenge of `POST /auth/passkeys/reauth/options` (any account; the way in for one with neither a password nor Apple); "
        + "or for an account without a password that has Apple linked `apple_identity_token` and `apple_nonce`."

    static var all: [String: JSONValue] {
        [
            "AppleSignInRequest": Schema.object(
                [
                    "identity_token": identityToken, "nonce": nonce, "authorization_code": authorizationCode,
                    "device_name": Schema.string("Names the new session's device (instead of the User-Agent); at most 100 characters kept."),
                ], required: ["identity_token", "nonce"]),
            "AppleLinkRequest": Schema.object(
                ["identity_token": identityToken, "nonce": nonce, "authorization_code": authorizationCode],
                required: ["identity_token", "nonce"]),
            "AppleCompleteRequest": Schema.object(
                [
                    "continuation_token": Schema.string("The `continuation_token` of the `403 profile_required`.", minLength: 1),
                    "username": FieldSchemas.username, "mbti": FieldSchemas.mbtiInput,
                    "device_name": Schema.string("Names the new session's device (instead of the User-Agent)."),
                ], required: ["continuation_token", "username", "mbti"]),
        ]
    }
}
