import AccountAPI

/// The schemas of single fields, from the rules in AccountAPI that the server itself checks.
enum FieldSchemas {
    static let username = Schema.string(
        "The nickname. After Unicode NFC and trimming: \(UsernameRule.minLength)–\(UsernameRule.maxLength) characters "
            + "(Unicode scalars) of letters (Hangul included), digits, " + UsernameRule.allowedSymbols.map { "`\($0)`" }.joined(separator: " and ")
            + "; not all digits; no zero-width, bidi or control characters. Unique ignoring case and width; reserved names are `taken`.",
        minLength: UsernameRule.minLength, maxLength: UsernameRule.maxLength)

    static let email = Schema.string(
        "Trimmed; one `@`, a non-empty local part, a domain with a dot, no spaces. Unique ignoring case.",
        format: "email", maxLength: EmailRule.maxLength)

    static func password(_ description: String) -> JSONValue {
        Schema.string(
            description + " \(PasswordRule.minLength)–\(PasswordRule.maxLength) characters (Unicode scalars after NFC), "
                + "no composition rules; refused when common (`too_common`) or when it contains the nickname or the email's local part (`too_similar`).",
            minLength: PasswordRule.minLength, maxLength: PasswordRule.maxLength)
    }

    static let mbtiInput = Schema.ref("MBTI", description: "One of the 16 types; any letter case is accepted on input.")

    static let code = Schema.string(
        "The \(CodeRule.length)-digit one-time code from the email (surrounding whitespace is ignored).",
        minLength: CodeRule.length, maxLength: CodeRule.length, pattern: "^[0-9]{\(CodeRule.length)}$")

    static let uuid = Schema.string(format: "uuid")
    static let time = Schema.string("RFC 3339 time in UTC.", format: "date-time")
    static let seconds = Schema.integer("Seconds.", minimum: 0)
}
