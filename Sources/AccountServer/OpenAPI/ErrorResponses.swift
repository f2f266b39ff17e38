/// The shared error replies (`#/components/responses/…`) and reply headers (`#/components/headers/…`).
enum ErrorResponses {
    /// The component name of each error status.
    static let names: [Int: String] = [
        400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 405: "MethodNotAllowed",
        409: "Conflict", 411: "LengthRequired", 413: "PayloadTooLarge", 415: "UnsupportedMediaType", 422: "ValidationFailed",
        429: "TooManyRequests", 500: "InternalError", 503: "ServiceUnavailable",
        408: "RequestTimeout", 414: "URITooLong", 431: "HeaderFieldsTooLarge", 505: "VersionNotSupported",
    ]

    static var all: [String: JSONValue] {
        [
            "BadRequest": response(
                "`invalid_request`: malformed JSON, not an object, a field of the wrong type, invalid UTF-8 or an empty body; "
                    + "or a request that is not well-formed HTTP/1.1 (a bad request line or header line, a bare CR or LF, no `Host` or two, "
                    + "`Content-Length` twice, not a plain number, or beside `Transfer-Encoding`; a control character or malformed `%` "
                    + "in the path or query), answered before it is routed and with the connection closed."),
            "Unauthorized": response(
                "`token_invalid` (missing, malformed, bad signature, wrong issuer or audience), `token_expired` or `session_revoked`.",
                extra: ["WWW-Authenticate": ref("WWW-Authenticate")]),
            "Forbidden": response(
                "`email_not_verified`; `mfa_required` (login only: with `mfa_token` and `methods`); or `invalid_credentials`: a wrong "
                    + "password on an authenticated request (password change, account deletion, second-factor changes), which leaves the session alone; "
                    + "`account_disabled` (login: an operator disabled the account); `admin_required` or `second_factor_required` (`/admin/api/...`)."),
            "NotFound": response("`not_found`."),
            "MethodNotAllowed": response(
                "`method_not_allowed`: the path exists with other methods, listed in `Allow`. Any path of this document answers it to a method it does not list.",
                extra: ["Allow": ref("Allow")]),
            "Conflict": response("`username_taken`; `mfa_already_enabled` or `mfa_not_enabled` (second-factor changes); `signup_superseded` (`POST /auth/email/verify`); `cannot_act_on_self` or `already_verified` (`/admin/api/users/{id}/...`)."),
            "LengthRequired": response("`length_required`: the body came chunked (`Transfer-Encoding`); send it with `Content-Length` (refused without reading it)."),
            "PayloadTooLarge": response("`payload_too_large`: the body is over 64 KiB (refused without reading it)."),
            "UnsupportedMediaType": response("`unsupported_media_type`: a body that is not `application/json` (a `charset` parameter is fine)."),
            "ValidationFailed": response("`validation_failed`: `errors` lists the codes of each refused field."),
            "TooManyRequests": response(
                "`rate_limited` (with `Retry-After`): too many auth requests from this address, login back-off or code resend limit; "
                    + "or `too_many_attempts` (no `Retry-After`): the code is spent after too many wrong tries.",
                extra: ["Retry-After": ref("Retry-After")]),
            "RequestTimeout": response("`request_timeout`: the request head did not arrive within the header timeout of its first byte (10 s by default), or its body in time; the connection is closed."),
            "URITooLong": response("`uri_too_long`: the request line is over 8 KiB or the query has more than 100 parameters; answered at once, the connection closed."),
            "HeaderFieldsTooLarge": response("`header_fields_too_large`: more than 100 header lines or 16 KiB of them; answered at once, the connection closed."),
            "VersionNotSupported": response("`version_not_supported`: the request was not HTTP/1.x."),
            "InternalError": response("`internal_error`: something failed on the server (the body never holds a stack trace or SQL)."),
            "ServiceUnavailable": response(
                "`service_unavailable`: the database is unavailable or the password-hashing queue is full; try again after `Retry-After`.",
                extra: ["Retry-After": ref("Retry-After")]),
        ]
    }

    static var headers: [String: JSONValue] {
        [
            "X-Request-Id": [
                "description": "The client's `X-Request-Id` when it is 1–128 letters, digits or `-_.:`, else a new UUID. On every reply.",
                "schema": Schema.string(maxLength: 128),
            ],
            "Retry-After": ["description": "Seconds to wait before trying again.", "schema": Schema.integer(minimum: 1)],
            "Allow": ["description": "The methods the path answers, comma-separated.", "schema": Schema.string()],
            "WWW-Authenticate": ["description": "`Bearer error=\"invalid_token\"` (RFC 6750).", "schema": Schema.string()],
        ]
    }

    /// A reference to a shared header.
    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/headers/\(name)")] }

    private static func response(_ description: String, extra: [String: JSONValue] = [:]) -> JSONValue {
        [
            "description": .string(description),
            "headers": .object(extra.merging(["X-Request-Id": ref("X-Request-Id")]) { first, _ in first }),
            "content": ["application/problem+json": ["schema": Schema.ref("Problem")]],
        ]
    }
}
