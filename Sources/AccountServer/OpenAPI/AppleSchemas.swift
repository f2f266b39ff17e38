import AccountAPI
import AccountCore

/// The request schemas of Sign in with Apple.
enum AppleSchemas {
    static let identityToken = Schema.string(
        "Apple's identity token (a JWT), as `ASAuthorizationAppleIDCredential.identityToken` gives it; at most 8 KiB.", minLength: 1)
    static let nonce = Schema.string(
        "The raw nonce whose SHA-256 (lower-case hex) the app put in its Apple request; at most 256 characters.",
        minLength: 1, maxLength: AppleIdentityVerifier.maximumNonceLength)
    static let authorizationCode = Schema.string(
        "Apple's one-time authorization code: exchanged at Apple's token endpoint (with `--apple-key-file`) for the refresh "
            + "token the server keeps sealed, to revoke the grant when the account is deleted.")

    static var all: [String: JSONValue] {
        [
            "AppleSignInRequest": Schema.object(
                [
                    "identity_token": identityToken, "nonce": nonce, "authorization_code": authorizationCode,
                    "device_name": Schema.string("Names the new session's device (instead of the User-Agent); at most 100 characters kept."),
                ], required: ["identity_token", "nonce"]),
            "AppleLinkRequest": StepUpSchemas.request(
                ["identity_token": identityToken, "nonce": nonce, "authorization_code": authorizationCode],
                required: ["identity_token", "nonce"], without: ["apple_identity_token", "apple_nonce"]),
            "AppleUnlinkRequest": StepUpSchemas.request(),
            "AppleCompleteRequest": Schema.object(
                [
                    "continuation_token": Schema.string("The `continuation_token` of the `403 profile_required`.", minLength: 1),
                    "username": FieldSchemas.username, "mbti": FieldSchemas.mbtiInput,
                    "device_name": Schema.string("Names the new session's device (instead of the User-Agent)."),
                ], required: ["continuation_token", "username", "mbti"]),
        ]
    }
}
