import AccountAPI
import Foundation

/// The field rules a form checks as the user types: the shared rules of `AccountAPI`, with the
/// limits of the server's ``Policy`` where it has been loaded and differs from the built-in ones.
///
/// ```swift
/// let rules = FormRules(policy: try await client.policy())
/// rules.username("a")   // [.tooShort]
/// ```
public struct FormRules: Sendable, Equatable {
    /// Fewest characters in a nickname.
    public var usernameMinLength = UsernameRule.minLength
    /// Most characters in a nickname.
    public var usernameMaxLength = UsernameRule.maxLength
    /// Most characters in an email address.
    public var emailMaxLength = EmailRule.maxLength
    /// Fewest characters in a password.
    public var passwordMinLength = PasswordRule.minLength
    /// Most characters in a password.
    public var passwordMaxLength = PasswordRule.maxLength
    /// Whether common passwords are refused.
    public var refusesCommonPasswords = true
    /// Whether passwords holding the nickname or the email's local part are refused.
    public var refusesSimilarPasswords = true
    /// The MBTI types the picker offers and the server accepts.
    public var mbtiTypes: [MBTI] = MBTI.allCases
    /// Digits in a one-time code.
    public var codeLength = CodeRule.length
    /// Seconds between two code requests for one address.
    public var resendCooldown = 60

    /// The built-in rules of `AccountAPI`.
    public init() {}

    /// The rules with the server's limits.
    public init(policy: Policy) {
        usernameMinLength = policy.username.minLength
        usernameMaxLength = policy.username.maxLength
        emailMaxLength = policy.email.maxLength
        passwordMinLength = policy.password.minLength
        passwordMaxLength = policy.password.maxLength
        refusesCommonPasswords = policy.password.refusesCommon
        refusesSimilarPasswords = policy.password.refusesSimilar
        mbtiTypes = policy.mbtiTypes.isEmpty ? MBTI.allCases : policy.mbtiTypes
        codeLength = policy.code.length
        resendCooldown = policy.code.resendCooldown
    }

    /// Why `raw` is not an acceptable nickname (empty when it is).
    public func username(_ raw: String) -> [FieldErrorCode] {
        let built = UsernameRule.validate(raw)
        guard built != [.required] else { return built }
        let length = Self.length(UsernameRule.normalize(raw))
        return Self.withLengths(built, length: length, min: usernameMinLength, max: usernameMaxLength)
    }

    /// Why `raw` is not an acceptable email address (empty when it is).
    public func email(_ raw: String) -> [FieldErrorCode] {
        let built = EmailRule.validate(raw)
        guard built != [.required] else { return built }
        let length = EmailRule.normalize(raw).unicodeScalars.count
        return Self.withLengths(built, length: length, min: 0, max: emailMaxLength)
    }

    /// Why `password` is not acceptable for this nickname and email (empty when it is).
    ///
    /// When the server's limits let through a length the built-in rule refuses, the built-in rule
    /// stops at the length and the similarity check is left to the server.
    public func password(_ password: String, username: String?, email: String?) -> [FieldErrorCode] {
        guard !password.isEmpty else { return [.required] }
        let length = Self.length(password)
        if length < passwordMinLength { return [.tooShort] }
        if length > passwordMaxLength { return [.tooLong] }
        var codes = PasswordRule.validate(password, username: username, email: email)
            .filter { $0 != .tooShort && $0 != .tooLong }
        if !codes.contains(.tooCommon), PasswordRule.isCommon(password) { codes.append(.tooCommon) }
        if !refusesCommonPasswords { codes.removeAll { $0 == .tooCommon } }
        if !refusesSimilarPasswords { codes.removeAll { $0 == .tooSimilar } }
        return codes
    }

    /// Why the confirmation does not fit the password (empty when it equals it).
    ///
    /// The wire field is optional, but a form that shows it asks for it.
    public func passwordConfirmation(_ confirmation: String, password: String) -> [FieldErrorCode] {
        if confirmation.isEmpty { return [.required] }
        return confirmation == password ? [] : [.mismatch]
    }

    /// Why `choice` is not an acceptable MBTI type (empty when it is).
    public func mbti(_ choice: MBTI?) -> [FieldErrorCode] {
        guard let choice else { return [.required] }
        return mbtiTypes.contains(choice) ? [] : [.invalidChoice]
    }

    /// Why `raw` is not a well-formed one-time code (empty when it is).
    public func code(_ raw: String) -> [FieldErrorCode] {
        let code = CodeRule.normalize(raw)
        guard !code.isEmpty else { return [.required] }
        let digits = code.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        return digits && code.unicodeScalars.count == codeLength ? [] : [.invalidFormat]
    }

    /// Length as the rules count it: Unicode scalars after NFC.
    static func length(_ text: String) -> Int {
        text.precomposedStringWithCanonicalMapping.unicodeScalars.count
    }

    /// Replaces the built-in length verdicts with ones against these limits.
    private static func withLengths(_ codes: [FieldErrorCode], length: Int, min: Int, max: Int) -> [FieldErrorCode] {
        var result = codes.filter { $0 != .tooShort && $0 != .tooLong }
        if length < min { result.insert(.tooShort, at: 0) }
        if length > max { result.insert(.tooLong, at: 0) }
        return result
    }
}
