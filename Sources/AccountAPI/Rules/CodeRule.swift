import Foundation

/// The one-time code rule: exactly 6 ASCII digits, surrounding whitespace ignored.
public enum CodeRule {
    /// Digits in a one-time code.
    public static let length = 6

    /// The code as compared: without surrounding whitespace and newlines.
    public static func normalize(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `required` when empty after trimming, `invalid_format` unless exactly 6 ASCII digits.
    ///
    /// `CodeRule.validate("012345")` is `[]`; `CodeRule.validate("12345")` is `[.invalidFormat]`.
    public static func validate(_ raw: String) -> [FieldErrorCode] {
        let code = normalize(raw)
        guard !code.isEmpty else { return [.required] }
        // ASCII only: other scripts' digits (e.g. "٠١٢٣٤٥") are not what the email said.
        let isDigits = code.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        return code.unicodeScalars.count == length && isDigits ? [] : [.invalidFormat]
    }
}
