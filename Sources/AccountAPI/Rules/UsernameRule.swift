import Foundation

/// The nickname rule: 2–20 letters (Hangul included), digits, `_` and `.`, not all digits, nothing
/// invisible, no look-alike scripts mixed.
///
/// The server checks more than this (UTS #39 scripts in full, reserved names and other accounts by
/// confusable skeleton); this is what a client can check without ICU.
///
/// ```swift
/// UsernameRule.validate("김민수")   // []
/// UsernameRule.validate("12345")   // [.invalidFormat]
/// UsernameRule.validate("ＡＤＭＩＮ") // [.taken]
/// UsernameRule.validate("\u{3164}\u{3164}") // [.invisibleCharacter]
/// UsernameRule.validate("аdmin")   // [.mixedScript] (Cyrillic а)
/// ```
public enum UsernameRule {
    /// Fewest Unicode scalars (after NFC) a nickname may have.
    public static let minLength = 2
    /// Most Unicode scalars (after NFC) a nickname may have.
    public static let maxLength = 20
    /// Characters besides letters and decimal digits that a nickname may hold.
    public static let allowedSymbols: [String] = ["_", "."]

    /// Keys (see ``key(_:)``) that no account may take; they answer `taken`. The server compares
    /// them by confusable skeleton too, so `аdmin` and `admın` are taken as well.
    package static let reserved: Set<String> = [
        "admin", "administrator", "root", "superuser", "sysadmin", "system", "support",
        "moderator", "mod", "staff", "team", "help", "info", "security", "abuse",
        "postmaster", "hostmaster", "webmaster", "noreply", "api", "auth", "login", "logout",
        "signin", "signup", "register", "account", "null", "undefined", "none", "anonymous",
        "me", "mbti", "official", "owner",
        "관리자", "운영자", "운영팀", "고객센터",
    ]

    /// The nickname as stored and shown: NFC, without surrounding whitespace and newlines.
    public static func normalize(_ raw: String) -> String {
        raw.nfc.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The uniqueness key of a normalized nickname: NFKC and case folded, so `"ＡＤＭＩＮ"` and
    /// `"Admin"` both give `"admin"`.
    package static func key(_ normalized: String) -> String {
        normalized.caselessKey
    }

    /// The errors of a nickname after ``normalize(_:)``, in rule order; empty when it is fine.
    ///
    /// Length counts Unicode scalars after NFC. `required` stands alone for an empty name, and
    /// `taken` (a reserved key) is reported only for a name that breaks no other rule. Invisible
    /// characters get `invisible_character` (not `invalid_format`), so the message can say why.
    public static func validate(_ raw: String) -> [FieldErrorCode] {
        let name = normalize(raw)
        guard !name.isEmpty else { return [.required] }
        var codes: [FieldErrorCode] = []
        if name.scalarCount < minLength { codes.append(.tooShort) }
        if name.scalarCount > maxLength { codes.append(.tooLong) }
        let visible = name.unicodeScalars.filter { !$0.isInvisible }
        if !visible.allSatisfy(isAllowed) || name.unicodeScalars.allSatisfy(isDigit) {
            codes.append(.invalidFormat)
        }
        if visible.count < name.unicodeScalars.count { codes.append(.invisibleCharacter) }
        if LookalikeScripts.mixes(name) { codes.append(.mixedScript) }
        if codes.isEmpty, reserved.contains(key(name)) { codes.append(.taken) }
        return codes
    }

    /// Letters of any script (general category L*, which holds Hangul syllables and jamo),
    /// decimal digits and the allowed symbols. Everything else, spaces, controls, emoji and
    /// combining marks included, is refused.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber:
            return true
        default:
            return allowedSymbols.contains(String(scalar))
        }
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .decimalNumber
    }
}
