extension ErrorCatalog {
    /// The reply every endpoint shares for one error status (OpenAPI's `#/components/responses/<name>`).
    public struct StatusReply: Sendable {
        public let status: Int
        /// Its component name (`TooManyRequests`).
        public let name: String
        /// The codes it answers with and when.
        public let description: String
        /// The reply headers it carries besides `X-Request-Id` (`Retry-After`).
        public let headers: [String]

        init(_ status: Int, _ name: String, _ description: String, headers: [String] = []) {
            self.status = status
            self.name = name
            self.description = description
            self.headers = headers
        }
    }

    /// The shared reply of `status`, if it is an error status of the API.
    public static func reply(_ status: Int) -> StatusReply? { replies.first { $0.status == status } }

    /// The shared reply of every error status.
    public static let replies: [StatusReply] = [
        StatusReply(
            400, "BadRequest",
            "`invalid_request`: malformed JSON, not an object, a field of the wrong type, invalid UTF-8 or an empty body; "
                + "or a request that is not well-formed HTTP/1.1 (a bad request line or header line, a bare CR or LF, no `Host` or two, "
                + "`Content-Length` twice, not a plain number, or beside `Transfer-Encoding`; a control character or malformed `%` "
                + "in the path or query), answered before it is routed and with the connection closed."),
        StatusReply(
            401, "Unauthorized",
            "`token_invalid` (missing, malformed, bad signature, wrong issuer or audience), `token_expired` or `session_revoked`.",
            headers: ["WWW-Authenticate"]),
        StatusReply(
            403, "Forbidden",
            "`email_not_verified`; `mfa_required` (login only: with `mfa_token` and `methods`); or `invalid_credentials`: a wrong "
                + "password on an authenticated request (password change, account deletion, second-factor changes), which leaves the session alone; "
                + "`account_disabled` (login: an operator disabled the account); `admin_required` or `second_factor_required` (`/admin/api/...`)."),
        StatusReply(404, "NotFound", "`not_found`."),
        StatusReply(
            405, "MethodNotAllowed",
            "`method_not_allowed`: the path exists with other methods, listed in `Allow`. Any path of this document answers it to a method it does not list.",
            headers: ["Allow"]),
        StatusReply(
            409, "Conflict",
            "`username_taken`; `mfa_already_enabled` or `mfa_not_enabled` (second-factor changes); `signup_superseded` (`POST /auth/email/verify`); `cannot_act_on_self` or `already_verified` (`/admin/api/users/{id}/...`)."),
        StatusReply(
            411, "LengthRequired",
            "`length_required`: the body came chunked (`Transfer-Encoding`); send it with `Content-Length` (refused without reading it)."),
        StatusReply(413, "PayloadTooLarge", "`payload_too_large`: the body is over 64 KiB (refused without reading it)."),
        StatusReply(415, "UnsupportedMediaType", "`unsupported_media_type`: a body that is not `application/json` (a `charset` parameter is fine)."),
        StatusReply(422, "ValidationFailed", "`validation_failed`: `errors` lists the codes of each refused field."),
        StatusReply(
            429, "TooManyRequests",
            "`rate_limited` (with `Retry-After`): too many auth requests from this address, login back-off or code resend limit; "
                + "or `too_many_attempts` (no `Retry-After`): the code is spent after too many wrong tries.",
            headers: ["Retry-After"]),
        StatusReply(
            408, "RequestTimeout",
            "`request_timeout`: the request head did not arrive within the header timeout of its first byte (10 s by default), or its body in time; the connection is closed."),
        StatusReply(
            414, "URITooLong",
            "`uri_too_long`: the request line is over 8 KiB or the query has more than 100 parameters; answered at once, the connection closed."),
        StatusReply(
            431, "HeaderFieldsTooLarge",
            "`header_fields_too_large`: more than 100 header lines or 16 KiB of them; answered at once, the connection closed."),
        StatusReply(505, "VersionNotSupported", "`version_not_supported`: the request was not HTTP/1.x."),
        StatusReply(500, "InternalError", "`internal_error`: something failed on the server (the body never holds a stack trace or SQL)."),
        StatusReply(
            503, "ServiceUnavailable",
            "`service_unavailable`: the database is unavailable or the password-hashing queue is full; try again after `Retry-After`.",
            headers: ["Retry-After"]),
    ]
}
