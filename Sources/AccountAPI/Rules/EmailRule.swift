import Foundation

/// The email rule: trimmed, at most 254 characters, one `@`, a local part and a dotted domain.
///
/// Deliberately loose (no RFC 5322 grammar): the code sent to the address is the real check.
///
/// ```swift
/// EmailRule.validate("mina@example.com") // []
/// EmailRule.validate("mina@localhost")   // [.invalidFormat]
/// ```
public enum EmailRule {
    /// Most Unicode scalars an address may have (RFC 5321's path limit).
    public static let maxLength = 254

    /// The address as stored, shown and mailed to: NFKC, without surrounding whitespace and
    /// newlines. NFKC turns full-width letters, ligatures and signs that stand for a letter (the
    /// Kelvin sign `K`) into the plain letters a mail server knows; letter case is kept.
    public static func normalize(_ raw: String) -> String {
        raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The uniqueness key of a normalized address: the whole address NFKC and case folded, so
    /// every spelling of one address (`Mina@Example.com`, `ｍｉｎａ@example.com`, `ſ` for `s`, the
    /// Kelvin sign for `k`) is one account.
    package static func key(_ normalized: String) -> String {
        normalized.caselessKey
    }

    /// The errors of an address after ``normalize(_:)``, in rule order; empty when it is fine.
    ///
    /// `invalid_format` unless there is exactly one `@`, a non-empty local part, a domain with a
    /// dot that is neither its first nor its last character (and neither end a dot), and no whitespace, control, format
    /// or other invisible (zero-width, bidi, variation selector) character anywhere. Length counts Unicode scalars.
    public static func validate(_ raw: String) -> [FieldErrorCode] {
        let address = normalize(raw)
        guard !address.isEmpty else { return [.required] }
        var codes: [FieldErrorCode] = []
        if address.scalarCount > maxLength { codes.append(.tooLong) }
        if !hasValidShape(address) { codes.append(.invalidFormat) }
        return codes
    }

    /// The part before the `@`, or `nil` when there is no `@`.
    static func localPart(of address: String) -> Substring? {
        guard let at = address.firstIndex(of: "@") else { return nil }
        return address[..<at]
    }

    private static func hasValidShape(_ address: String) -> Bool {
        guard !address.unicodeScalars.contains(where: isInvisibleOrSpace) else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        let domain = parts[1]
        // A dot in the middle, and none at either end: "example.com", not ".com" or "example.".
        return domain.contains(".") && domain.first != "." && domain.last != "."
    }

    private static func isInvisibleOrSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isInvisible { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return scalar.properties.isWhitespace
        }
    }
}
