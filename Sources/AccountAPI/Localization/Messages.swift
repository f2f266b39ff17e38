/// Human texts for problem codes (from ``ErrorCatalog``) and field errors, in Korean and English.
///
/// ```swift
/// Messages.title(.validationFailed, .ko)             // "입력값을 확인해 주세요"
/// Messages.field(.tooShort, field: "password", .en)  // "Use at least 8 characters."
/// ```
///
/// Codes this version does not know (from a newer server) get a generic text.
public enum Messages {
    /// A short title for a problem code, e.g. "Validation failed" / "입력값을 확인해 주세요".
    public static func title(_ code: ErrorCode, _ language: Language) -> String {
        (ErrorCatalog.entry(code)?.title ?? ErrorCatalog.unknownTitle)(language)
    }

    /// One sentence explaining a problem code, e.g. "Some fields are invalid.".
    public static func detail(_ code: ErrorCode, _ language: Language) -> String {
        (ErrorCatalog.entry(code)?.detail ?? ErrorCatalog.unknownDetail)(language)
    }

    /// The message for one field error, e.g. `(.tooShort, "password", .en)` →
    /// "Use at least 8 characters.".
    ///
    /// - Parameters:
    ///   - code: why the field was refused.
    ///   - field: the wire name of the field (`"username"`, `"mbti"`, …); texts differ by field.
    ///   - language: the language of the text.
    public static func field(_ code: FieldErrorCode, field: String, _ language: Language) -> String {
        FieldTexts.text(for: code, field: field)(language)
    }
}
