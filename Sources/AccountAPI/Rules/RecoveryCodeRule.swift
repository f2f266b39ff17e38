/// The recovery-code rule: 10 characters of Crockford's base32 (`xxxxx-xxxxx` as shown), letter
/// case, spaces and hyphens ignored, and the look-alikes people type for `0` and `1` read as them.
/// The server compares codes by ``normalize(_:)``; the SDK checks a typed code with the same rule.
///
/// ```swift
/// RecoveryCodeRule.normalize("ABCDE-FGH1O")   // "abcdefgh10"
/// RecoveryCodeRule.validate("abc")             // [.invalidFormat]
/// ```
public enum RecoveryCodeRule {
    /// Characters in a recovery code (hyphen and spaces not counted).
    public static let length = 10

    /// Crockford's base32 alphabet in lower case: no `i`, `l`, `o` or `u`.
    package static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    /// The code as compared: lower case, without spaces and hyphens, with `o` read as `0` and
    /// `i`, `l` as `1`; `nil` unless that is ``length`` characters of the alphabet.
    public static func normalize(_ text: String) -> String? {
        var out: [UInt8] = []
        for scalar in text.lowercased().unicodeScalars {
            switch scalar {
            case " ", "-", "\t", "\n", "\r": continue
            case "o": out.append(UInt8(ascii: "0"))
            case "i", "l": out.append(UInt8(ascii: "1"))
            default:
                guard scalar.isASCII, alphabet.contains(UInt8(scalar.value)) else { return nil }
                out.append(UInt8(scalar.value))
            }
            if out.count > length { return nil }
        }
        return out.count == length ? String(decoding: out, as: UTF8.self) : nil
    }

    /// `required` when nothing but spaces and hyphens, `invalid_format` unless ``normalize(_:)``
    /// reads a code.
    public static func validate(_ text: String) -> [FieldErrorCode] {
        if text.unicodeScalars.allSatisfy({ $0 == " " || $0 == "-" || $0 == "\t" || $0 == "\n" || $0 == "\r" }) { return [.required] }
        return normalize(text) == nil ? [.invalidFormat] : []
    }
}
