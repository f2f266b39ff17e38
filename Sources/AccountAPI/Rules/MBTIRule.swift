import Foundation

/// The MBTI rule: one of the 16 types, any letter case, surrounding whitespace ignored.
package enum MBTIRule {
    /// `required` when empty after trimming, `invalid_choice` unless one of the 16 types, else none.
    ///
    /// `MBTIRule.validate("enfp")` is `[]`; `MBTIRule.validate("ABCD")` is `[.invalidChoice]`.
    package static func validate(_ raw: String) -> [FieldErrorCode] {
        if raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return [.required] }
        return MBTI(parsing: raw) == nil ? [.invalidChoice] : []
    }
}
