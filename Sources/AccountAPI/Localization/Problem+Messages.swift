extension Problem {
    /// A problem for `code` with its title, detail (repeated as `message`) and field messages in `language`.
    ///
    /// ```swift
    /// var errors = FieldErrors()
    /// errors.add(.tooShort, to: "password")
    /// let problem = Problem.make(.validationFailed, status: 422, language: .en, errors: errors)
    /// problem.errors?["password"]?.first?.message // "Use at least 8 characters."
    /// ```
    ///
    /// - Parameters:
    ///   - code: the problem code.
    ///   - status: the HTTP status of the reply.
    ///   - language: the language of every text.
    ///   - detail: a detail that replaces the code's standard one.
    ///   - errors: the field errors; `errors` is left out of the body when this is `nil` or empty.
    ///   - mfaToken: the `mfa_token` of an `mfa_required` problem.
    ///   - methods: the `methods` of an `mfa_required` problem.
    package static func make(
        _ code: ErrorCode, status: Int, language: Language, detail: String? = nil, errors: FieldErrors? = nil,
        mfaToken: String? = nil, methods: [SecondFactorMethod]? = nil, profile: AppleProfileRequired? = nil
    ) -> Problem {
        let fieldErrors = errors.flatMap { errors -> [String: [FieldError]]? in
            guard !errors.isEmpty else { return nil }
            return errors.byField.reduce(into: [:]) { result, entry in
                result[entry.key] = entry.value.map {
                    FieldError(code: $0, message: Messages.field($0, field: entry.key, language))
                }
            }
        }
        let detail = detail ?? Messages.detail(code, language)
        return Problem(
            title: Messages.title(code, language), status: status, code: code,
            detail: detail, message: detail, errors: fieldErrors, mfaToken: mfaToken, methods: methods,
            continuationToken: profile?.continuationToken, expiresIn: profile?.expiresIn, email: profile?.email)
    }
}
