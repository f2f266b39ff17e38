import AccountAPI
import AccountCore

/// The schemas of single fields, from the rules in AccountAPI that the server itself checks.
enum FieldSchemas {
    static let username = Schema.string(
        "The nickname. After Unicode NFC and trimming: \(UsernameRule.minLength)–\(UsernameRule.maxLength) characters "
            + "(Unicode scalars) of letters (Hangul included), digits, " + UsernameRule.allowedSymbols.map { "`\($0)`" }.joined(separator: " and ")
            + "; not all digits; no control characters. Invisible (Default_Ignorable) characters such as zero-width "
            + "spaces, bidi controls and Hangul fillers are `invisible_character`; scripts mixed beyond UTS #39's highly restrictive "
            + "level (one script, or Latin with Hangul, Han or Japanese kana) and digits of two number systems are `mixed_script`. "
            + "Unique by UTS #39 confusable skeleton after NFKC and case folding (`ADMIN`, `admın`, `rnina` for `mina`): a look-alike "
            + "of an account's nickname is `username_taken`, of a reserved name `taken`.",
        minLength: UsernameRule.minLength, maxLength: UsernameRule.maxLength)

    static let email = Schema.string(
        "Trimmed and NFKC; one `@`, a non-empty local part, a domain with a dot, no spaces or invisible characters. "
            + "Unique after NFKC and Unicode case folding (the Kelvin sign is `k`, `ſ` is `s`, full-width letters are letters); "
            + "mail always goes to the address as the account stored it.",
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

    /// A code from an authenticator app.
    static func authenticatorCode(_ description: String) -> JSONValue {
        Schema.string(
            description + " The 6-digit code the authenticator app shows (RFC 6238: SHA-1, 30-second steps; one step of clock "
                + "skew either side is accepted; a code is accepted once).",
            minLength: 6, maxLength: 6, pattern: "^[0-9]{6}$")
    }

    static let recoveryCode = Schema.string(
        "A recovery code (`xxxxx-xxxxx`; letter case, spaces and hyphens do not matter), instead of `code`. Each works once.")

    static let uuid = Schema.string(format: "uuid")
    static let time = Schema.string("RFC 3339 time in UTC.", format: "date-time")
    static let seconds = Schema.integer("Seconds.", minimum: 0)
    /// A session's client address (`SessionInfo`, the admin account page).
    static let sessionAddress = Schema.string(
        "The client address that last used the session (its login or latest refresh), kept only while it lives; "
            + "`null` when unknown.",
        maxLength: EventOrigin.maxAddress, nullable: true)
}
