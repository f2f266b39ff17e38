import AccountAPI

extension FormRules {
    /// The message for `code` on the wire field `field`, in `language`.
    ///
    /// `Messages.field` words length errors with the built-in limits; where the server's limits
    /// differ, the sentence names the server's number instead, so the text matches the check.
    public func message(_ code: FieldErrorCode, field: String, _ language: Language) -> String {
        if let limit = changedLimit(code, field: field) {
            return Self.lengthText(code == .tooShort, field: field, limit: limit, language)
        }
        return Messages.field(code, field: field, language)
    }

    /// The server's `error` on `field`: its own message, else this rule's sentence for its code.
    public func message(for error: FieldError, field: String, _ language: Language) -> String {
        error.message.isEmpty ? message(error.code, field: field, language) : error.message
    }

    /// The messages for `codes` on `field`, in order.
    public func messages(_ codes: [FieldErrorCode], field: String, _ language: Language) -> [String] {
        codes.map { message($0, field: field, language) }
    }

    /// The server's limit for a length error, when it differs from the built-in one.
    private func changedLimit(_ code: FieldErrorCode, field: String) -> Int? {
        let pair: (ours: Int, builtIn: Int)
        switch (field, code) {
        case ("username", .tooShort): pair = (usernameMinLength, UsernameRule.minLength)
        case ("username", .tooLong): pair = (usernameMaxLength, UsernameRule.maxLength)
        case ("email", .tooLong): pair = (emailMaxLength, EmailRule.maxLength)
        case ("password", .tooShort): pair = (passwordMinLength, PasswordRule.minLength)
        case ("password", .tooLong): pair = (passwordMaxLength, PasswordRule.maxLength)
        default: return nil
        }
        return pair.ours == pair.builtIn ? nil : pair.ours
    }

    private static func lengthText(_ short: Bool, field: String, limit: Int, _ language: Language) -> String {
        switch (language, short) {
        case (.en, true): return "Use at least \(limit) characters."
        case (.en, false): return "Use at most \(limit) characters."
        case (.ko, _):
            let noun = field == "username" ? "닉네임은" : field == "email" ? "이메일 주소는" : "비밀번호는"
            return short ? "\(noun) \(limit)자 이상이어야 해요." : "\(noun) \(limit)자 이하여야 해요."
        }
    }
}
