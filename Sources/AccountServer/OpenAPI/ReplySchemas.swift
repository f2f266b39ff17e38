import AccountAPI
import AccountCore

/// The schemas of success replies (the wire types of AccountAPI).
enum ReplySchemas {
    static var all: [String: JSONValue] {
        [
            "MBTI": Schema.string("One of the 16 MBTI types, upper case on output.", choices: MBTI.allCases.map(\.rawValue)),
            "User": user,
            "TokenPair": tokenPair,
            "SignUpAccepted": Schema.object(
                [
                    "email": Schema.string("The address the code was sent to (as normalized).", format: "email"),
                    "verification": Schema.constant("code_sent"),
                    "expires_in": Schema.integer("Seconds the code stays valid.", minimum: 0),
                    "signup_token": Schema.string(
                        "Names this sign-up and no other (a newer sign-up of the address gets another): send it as "
                            + "`signup_token` with the code to `POST /auth/email/verify`, which needs it when the sign-up is contested. "
                            + "Opaque; of the same shape whether or not the address has an account.",
                        minLength: 43, maxLength: 43, pattern: "^[A-Za-z0-9_-]{43}$"),
                ], required: ["email", "verification", "expires_in", "signup_token"],
                description: "A sign-up without a verification token: it waits, holding the nickname, until the mailed code is verified."),
            "EmailCodeSent": Schema.object(
                [
                    "email": Schema.string("The address (as normalized).", format: "email"),
                    "expires_in": Schema.integer("Seconds the code stays valid.", minimum: 0),
                ], required: ["email", "expires_in"],
                description: "The same whether or not the address has an account."),
            "EmailVerified": Schema.object(
                [
                    "email": Schema.string(format: "email"),
                    "verified": Schema.constant(true),
                    "email_verification_token": Schema.string(
                        "Single use, valid 30 minutes, only for this address: pass it to `POST /auth/signup` to create a verified account."),
                    "session": Schema.ref(
                        "TokenPair",
                        description: "Only with `sign_in: true`, when the code made a details-first sign-up's account in time: "
                            + "its new session, as a login returns it. Absent otherwise: log in with the password."),
                ], required: ["email", "verified", "email_verification_token"]),
            "SessionInfo": Schema.object(
                [
                    "id": FieldSchemas.uuid,
                    "created_at": FieldSchemas.time,
                    "last_used_at": FieldSchemas.time,
                    "user_agent": Schema.string("The `User-Agent` of the login, if it sent one.", nullable: true),
                    "current": Schema.boolean("Whether this is the session of the token that asked."),
                    "client_address": FieldSchemas.sessionAddress,
                ], required: ["id", "created_at", "last_used_at", "user_agent", "current", "client_address"]),
            "SessionList": Schema.object(
                ["sessions": Schema.array(Schema.ref("SessionInfo"), description: "Live sessions, newest first.")],
                required: ["sessions"]),
            "Policy": policy,
            "JWKSet": jwkSet,
            "Status": Schema.object(["status": Schema.string(choices: ["ok", "ready"])], required: ["status"]),
        ]
    }

    private static let user = Schema.object(
        [
            "id": FieldSchemas.uuid,
            "username": Schema.string("The nickname as entered (after NFC and trimming).", minLength: UsernameRule.minLength, maxLength: UsernameRule.maxLength),
            "email": Schema.string(format: "email", maxLength: EmailRule.maxLength),
            "email_verified": Schema.boolean(),
            "mbti": Schema.ref("MBTI"),
            "created_at": FieldSchemas.time,
            "mfa": Schema.ref("SecondFactorStatus"),
            "apple_linked": Schema.boolean("Whether an Apple ID is linked (Sign in with Apple)."),
            "has_password": Schema.boolean("Whether the account has a password (one made with Apple has none until it sets one by the reset)."),
        ], required: ["id", "username", "email", "email_verified", "mbti", "created_at"])

    private static let tokenPair = Schema.object(
        [
            "access": Schema.string("An Ed25519-signed JWT (`typ` `at+jwt`) for `Authorization: Bearer`."),
            "refresh": Schema.string("An opaque single-use token for `POST /auth/refresh`; a new one comes every time."),
            "token_type": Schema.constant("Bearer"),
            "expires_in": Schema.integer("Seconds until `access` expires.", minimum: 0),
            "refresh_expires_in": Schema.integer("Seconds until `refresh` (and its session) expires if unused.", minimum: 0),
            "user": Schema.ref("User"),
        ], required: ["access", "refresh", "token_type", "expires_in", "refresh_expires_in", "user"],
        description: "Reply of login, refresh and a verified sign-up. `access` and `refresh` are top-level, as the original app reads them.")

    private static let policy = Schema.object(
        [
            "username": Schema.object(
                ["min_length": Schema.integer(minimum: 1), "max_length": Schema.integer(minimum: 1), "allowed_symbols": Schema.array(Schema.string())],
                required: ["min_length", "max_length", "allowed_symbols"]),
            "email": Schema.object(["max_length": Schema.integer(minimum: 1)], required: ["max_length"]),
            "password": Schema.object(
                [
                    "min_length": Schema.integer(minimum: 1), "max_length": Schema.integer(minimum: 1),
                    "refuses_common": Schema.boolean(), "refuses_similar": Schema.boolean(),
                ], required: ["min_length", "max_length", "refuses_common", "refuses_similar"]),
            "mbti_types": Schema.array(Schema.ref("MBTI")),
            "code": Schema.object(
                [
                    "length": Schema.integer("Digits in a code.", minimum: 1),
                    "lifetime": Schema.integer("Seconds a code stays valid.", minimum: 0),
                    "resend_cooldown": Schema.integer("Seconds before another code to the same address.", minimum: 0),
                    "max_attempts": Schema.integer("Wrong tries before a code is spent.", minimum: 1),
                ], required: ["length", "lifetime", "resend_cooldown", "max_attempts"]),
            "email_verification_required": Schema.boolean("Whether login is refused (`email_not_verified`) until the address is verified."),
            "access_token_lifetime": Schema.integer("Seconds an access token lives.", minimum: 0),
            "session_idle_lifetime": Schema.integer("Seconds a session survives without a refresh.", minimum: 0),
            "session_max_lifetime": Schema.integer("Seconds a session lives at most.", minimum: 0),
        ],
        required: [
            "username", "email", "password", "mbti_types", "code", "email_verification_required",
            "access_token_lifetime", "session_idle_lifetime", "session_max_lifetime",
        ],
        description: "The rules and limits clients show and check before sending, instead of hard-coding them.")

    private static let jwkSet = Schema.object(
        [
            "keys": Schema.array(Schema.object(
                [
                    "kty": Schema.constant("OKP"), "crv": Schema.constant("Ed25519"),
                    "x": Schema.string("The public key, base64url without padding."),
                    "kid": Schema.string("The `kid` of access tokens this key verifies."),
                    "alg": Schema.constant("EdDSA"), "use": Schema.constant("sig"),
                ], required: ["kty", "crv", "x", "kid", "alg", "use"]))
        ], required: ["keys"], description: "RFC 7517 JWK Set of the Ed25519 public keys (RFC 8037) that verify access tokens.")
}
