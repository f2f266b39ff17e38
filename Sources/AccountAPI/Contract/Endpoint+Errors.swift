extension Endpoint {
    /// Every error status this endpoint can answer, each with the codes it answers there: its own
    /// ``errors``, then what every endpoint of its kind answers (a token error behind a token, the
    /// body's refusals where it takes one, the HTTP layer's refusals, the per-address limit under
    /// `/auth/`, `500`). An endpoint's own text for a status wins.
    public var errorReplies: [Int: String] {
        var errors = errors
        if auth != .none, errors[401] == nil { errors[401] = "The access token is missing, invalid or expired, or its session ended." }
        if request != nil {
            errors[400] = errors[400] ?? "`invalid_request`: the body is not a JSON object of the right field types."
            errors[411] = errors[411] ?? "`length_required`: a chunked body."
            errors[413] = errors[413] ?? "`payload_too_large`."
            errors[415] = errors[415] ?? "`unsupported_media_type`."
            errors[422] = errors[422] ?? "`validation_failed`: see `errors`."
        }
        // Any request: refused by the HTTP layer before it is routed.
        errors[400] = errors[400] ?? "`invalid_request`: the request is not well-formed HTTP/1.1."
        errors[408] = errors[408] ?? "`request_timeout`."
        errors[414] = errors[414] ?? "`uri_too_long`."
        errors[431] = errors[431] ?? "`header_fields_too_large`."
        if path.hasPrefix("/auth/"), errors[429] == nil { errors[429] = "`rate_limited`: too many auth requests from this address." }
        errors[500] = errors[500] ?? "`internal_error`."
        return errors
    }

    /// The error codes this endpoint can answer, with the statuses it answers each with: the
    /// codes the texts of ``errorReplies`` name.
    public var errorCodes: [ErrorCode: Set<Int>] {
        var codes: [ErrorCode: Set<Int>] = [:]
        for (status, text) in errorReplies {
            for span in ErrorCatalog.codeSpans(in: text) {
                let code = ErrorCode(span)
                if ErrorCatalog.entry(code) != nil { codes[code, default: []].insert(status) }
            }
        }
        return codes
    }
}

extension Endpoint {
    /// How every change that takes the step-up proof says what the proof is.
    static let stepUpProof = "the step-up proof (`StepUpProof`: a passkey assertion, or the password with a code while the second factor is on; "
        + "a passkey for an account that holds one and no authenticator app), checked under the account's login back-off."

    /// What a change that takes the step-up proof (``StepUpProof``) refuses, beside its own
    /// replies (`own` first where both say a status).
    static func stepUpErrors(_ own: [Int: String]) -> [Int: String] {
        let proof: [Int: String] = [
            400: "`invalid_request` (also for both `code` and `recovery_code`); `code_invalid`: the second factor is wrong; `challenge_invalid` or `challenge_expired`: the challenge of a `passkey_assertion`.",
            403: "`invalid_credentials`: the password is wrong (the session stays); `passkey_invalid`: a `passkey_assertion` failed a check (another account's passkey included); `apple_token_invalid`: the Apple identity token is not a fresh one of the Apple ID linked to this account, or was accepted before.",
            422: "`validation_failed`: the proof is missing: `password` (or `current_password`), `passkey_assertion` (an account that holds a passkey and no authenticator app, or one with neither a password nor Apple), `apple_identity_token`/`apple_nonce`, or `code`.",
            429: "`rate_limited`: the account is backed off after failed password, code or proof checks, or the address limit; with `Retry-After`.",
        ]
        return own.merging(proof) { own, proof in own + " " + proof }
    }
}
