/// A stable code for why one field was refused (inside `errors` of a `validation_failed` problem).
///
/// Open like ``ErrorCode``: unknown codes from a newer server still decode. There is a constant
/// for every field code this server sends.
public struct FieldErrorCode: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    /// The code as it appears on the wire (`"too_short"`).
    public let rawValue: String
    /// The code with this wire text, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The code with this wire text, known or not: `FieldErrorCode("too_short")`.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The wire text.
    public var description: String { rawValue }

    /// The field is missing or empty.
    public static let required = FieldErrorCode("required")
    /// Shorter than the minimum length.
    public static let tooShort = FieldErrorCode("too_short")
    /// Longer than the maximum length.
    public static let tooLong = FieldErrorCode("too_long")
    /// Characters or shape not allowed (e.g. an email without a domain).
    public static let invalidFormat = FieldErrorCode("invalid_format")
    /// Not one of the allowed values (e.g. an unknown MBTI type).
    public static let invalidChoice = FieldErrorCode("invalid_choice")
    /// Does not match the field it must equal (password confirmation).
    public static let mismatch = FieldErrorCode("mismatch")
    /// A password from the list of commonly used passwords.
    public static let tooCommon = FieldErrorCode("too_common")
    /// A password that contains the nickname or the email's local part.
    public static let tooSimilar = FieldErrorCode("too_similar")
    /// Already used by another account (or reserved).
    public static let taken = FieldErrorCode("taken")
    /// Holds an invisible (Default_Ignorable) character: a zero-width space or joiner, a Hangul
    /// filler, a variation selector, a soft hyphen, a bidi control.
    public static let invisibleCharacter = FieldErrorCode("invisible_character")
    /// Mixes scripts that can pass for one another (Cyrillic `а` inside Latin `admin`) or digits of
    /// different number systems; Latin with Hangul, Han or Japanese kana is fine (UTS #39 "highly
    /// restrictive").
    public static let mixedScript = FieldErrorCode("mixed_script")
}
