import AccountAPI
import AccountCore

/// The schemas of request bodies. Unknown fields are ignored; a missing required field is a
/// `422 validation_failed` with `required`, a field of the wrong JSON type a `400 invalid_request`.
enum RequestSchemas {
    static var all: [String: JSONValue] {
        [
            "SignUpRequest": Schema.object(
                [
                    "username": FieldSchemas.username,
                    "email": FieldSchemas.email,
                    "password": FieldSchemas.password("The new password."),
                    "password_confirmation": Schema.string("Optional; when present it must equal `password` (`mismatch`)."),
                    "mbti": FieldSchemas.mbtiInput,
                    "email_verification_token": Schema.string(
                        "From `POST /auth/email/verify` (email-first flow): the account starts verified and is signed in (201)."),
                ], required: ["username", "email", "password", "mbti"]),
            "EmailCodeRequest": Schema.object(
                [
                    "email": FieldSchemas.email,
                    "purpose": Schema.string(
                        "`signup`: prove an address before the account exists (email-first sign-up). "
                            + "`verify`: verify the address of an existing unverified account.",
                        choices: CodePurpose.allCases.map(\.rawValue)),
                ], required: ["email", "purpose"]),
            "EmailVerifyRequest": Schema.object(
                [
                    "email": FieldSchemas.email,
                    "code": FieldSchemas.code,
                    "sign_in": Schema.boolean(
                        "`true`: when the code makes a details-first sign-up's account, within `--verify-sign-in-window` "
                            + "seconds (30 minutes by default) of that sign-up, also sign it in (`session` in the reply). "
                            + "Send `signup_token` with it."),
                    "signup_token": Schema.string(
                        "The `signup_token` of the sign-up's 202 reply (optional, recommended). Checked whenever sent: when it "
                            + "does not name the address's current pending sign-up (a newer sign-up replaced it), a right code makes "
                            + "nothing and is answered `409 signup_superseded`. Without it, a contested pending sign-up (one that "
                            + "replaced another client's) is answered the same way.",
                        minLength: 43, maxLength: 43, pattern: "^[A-Za-z0-9_-]{43}$"),
                ], required: ["email", "code"]),
            "LoginRequest": loginRequest,
            "RefreshRequest": Schema.object(
                ["refresh": Schema.string("The refresh token of the last login or refresh.", minLength: 1, maxLength: 256)],
                required: ["refresh"]),
            "UpdateProfileRequest": Schema.object(
                ["username": FieldSchemas.username, "mbti": FieldSchemas.mbtiInput],
                description: "Absent fields stay as they are."),
            "DeleteAccountRequest": StepUpSchemas.request(),
            "ChangePasswordRequest": StepUpSchemas.request(
                ["new_password": FieldSchemas.password("The password from now on.")], required: ["new_password"],
                passwordField: "current_password", without: ["apple_identity_token", "apple_nonce"]),
            "PasswordResetRequest": Schema.object(["email": FieldSchemas.email], required: ["email"]),
            "PasswordResetConfirmRequest": Schema.object(
                ["email": FieldSchemas.email, "code": FieldSchemas.code, "new_password": FieldSchemas.password("The password from now on.")],
                required: ["email", "code", "new_password"]),
        ]
    }

    private static let loginRequest: JSONValue = Schema.object(
        [
            "username": Schema.string("The nickname (any letter case or width)."),
            "email": Schema.string("The email address (any letter case).", format: "email"),
            "login": Schema.string("A nickname or an email address, told apart by the `@`."),
            "password": Schema.string(minLength: 1),
        ], required: ["password"],
        description: "Exactly one of `username`, `email` or `login`, and `password`. Two or more identifiers: `400 invalid_request`; none: `422` with `required`."
    ).merging(["oneOf": [["required": ["username"]], ["required": ["email"]], ["required": ["login"]]]])
}
