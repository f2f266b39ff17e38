import AccountAPI
import AccountCore

/// The request and reply schemas of the second factor.
enum SecondFactorSchemas {
    static var all: [String: JSONValue] {
        [
            "SecondFactorStatus": Schema.object(
                [
                    "totp": Schema.boolean("Whether logins need an authenticator code (or a recovery code) after the password."),
                    "recovery_codes_left": Schema.integer("Unused recovery codes (0 while `totp` is off).", minimum: 0),
                ], required: ["totp", "recovery_codes_left"],
                description: "The account's second factor."),
            "TOTPEnrollRequest": StepUpSchemas.request(without: ["code", "recovery_code"]),
            "TOTPEnrollment": Schema.object(
                [
                    "secret": Schema.string("The new secret, base32 (RFC 4648) without padding: 160 random bits.", pattern: "^[A-Z2-7]{32}$"),
                    "otpauth_uri": Schema.string(
                        "`otpauth://totp/<issuer>:<nickname>?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`, for a QR code; "
                            + "issuer and nickname percent-encoded (`--totp-issuer`, `MBTI Playground` by default)."),
                ], required: ["secret", "otpauth_uri"],
                description: "Shown once. Nothing changes for login until a code confirms it."),
            "TOTPConfirmRequest": Schema.object(
                ["code": FieldSchemas.authenticatorCode("The code the app shows for the new secret.")], required: ["code"]),
            "RecoveryCodes": Schema.object(
                [
                    "recovery_codes": Schema.array(
                        Schema.string(pattern: "^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$"),
                        description: "Ten single-use codes (50 random bits each), shown once; the server keeps only keyed hashes.")
                ], required: ["recovery_codes"]),
            "SecondFactorVerifyRequest": Schema.object(
                [
                    "mfa_token": Schema.string("The `mfa_token` of the login's `403 mfa_required`.", minLength: 1),
                    "code": FieldSchemas.authenticatorCode("Give this or `recovery_code`."),
                    "recovery_code": FieldSchemas.recoveryCode,
                ], required: ["mfa_token"],
                description: "Exactly one of `code` and `recovery_code`: neither is `422` (`code` `required`), both `400 invalid_request`."),
            "RecoveryCodesRequest": StepUpSchemas.request(required: ["code"], factor: "Required: a code of the authenticator app.", without: ["recovery_code"]),
            "TOTPDisableRequest": StepUpSchemas.request(factor: "Required: this or `recovery_code`."),
        ]
    }
}
