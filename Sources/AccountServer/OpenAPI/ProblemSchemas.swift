import AccountAPI
import AccountCore

/// The RFC 9457 problem body of every error reply.
enum ProblemSchemas {
    /// The codes the server sends, in the catalog's order.
    static let errorCodes = ErrorCatalog.serverCodes.map(\.rawValue)
    static let fieldErrorCodes = ErrorCatalog.fieldEntries.map(\.code.rawValue)

    static var all: [String: JSONValue] {
        [
            "Problem": Schema.object(
                [
                    "type": Schema.string("Always `about:blank`.", format: "uri-reference"),
                    "title": Schema.string("A short human text in the caller's language (`Accept-Language`: `ko` or `en`)."),
                    "status": Schema.integer("The HTTP status, repeated.", minimum: 400),
                    "code": Schema.string(
                        "Stable and machine-readable. Known today: " + errorCodes.map { "`\($0)`" }.joined(separator: ", ")
                            + ". Clients should treat an unknown code by its status."),
                    "detail": Schema.string("Human text in the caller's language; never secrets, stack traces or SQL."),
                    "message": Schema.string(
                        "An extension member (RFC 9457): `detail` repeated word for word, on every problem, for clients that show a "
                            + "`message`."),
                    "errors": .object([
                        "type": "object",
                        "description": "Per-field errors by wire field name; present only on `validation_failed`.",
                        "additionalProperties": Schema.array(Schema.ref("FieldError")),
                    ]),
                    "mfa_token": Schema.string(
                        "Only on `mfa_required` (login, after a right password): opaque, single use, valid 5 minutes and for 5 wrong "
                            + "codes; send it to `POST /auth/mfa/verify` with a second factor."),
                    "methods": Schema.array(
                        Schema.string(choices: [SecondFactorMethod.totp.rawValue, SecondFactorMethod.recoveryCode.rawValue]),
                        description: "Only on `mfa_required`: the factors that may answer it (`recovery_code` only while some are left)."),
                    "continuation_token": Schema.string(
                        "Only on `profile_required` (Sign in with Apple, a new user): opaque, single use, valid `expires_in` seconds; "
                            + "send it to `POST /auth/apple/complete` with a nickname and MBTI type."),
                    "expires_in": Schema.integer("Only on `profile_required`: seconds the continuation token is valid (600).", minimum: 0),
                    "email": Schema.string("Only on `profile_required`: the address Apple gave (a private relay address included).", format: "email"),
                ], required: ["type", "title", "status", "code"]),
            "FieldError": Schema.object(
                [
                    "code": Schema.string("Known today: " + fieldErrorCodes.map { "`\($0)`" }.joined(separator: ", ") + "."),
                    "message": Schema.string("Human text in the caller's language."),
                ], required: ["code", "message"]),
        ]
    }
}
