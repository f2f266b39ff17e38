import Foundation

/// The password rule: 8–128 characters, not a common password, not containing the nickname
/// or the email's local part. No composition rules (NIST SP 800-63B).
///
/// ```swift
/// PasswordRule.validate("correct horse", username: "mina", email: "mina@example.com") // []
/// PasswordRule.validate("password123", username: nil, email: nil)                   // [.tooCommon]
/// ```
public enum PasswordRule {
    /// Fewest Unicode scalars (after NFC) a password may have.
    public static let minLength = 8
    /// Most Unicode scalars (after NFC) a password may have.
    public static let maxLength = 128
    /// The shortest email local part that `too_similar` looks for.
    static let minSimilarLocalPartLength = 3

    /// The errors of a password, in rule order; empty when it is fine.
    ///
    /// The password is not trimmed (spaces are characters like any other). Its length counts
    /// Unicode scalars after NFC: `too_short` below 8, `too_long` above 128, and then nothing
    /// else is checked. `too_common` if the lower-cased password is in the bundled list;
    /// `too_similar` if it contains, ignoring case and width, the nickname's key (only when the
    /// nickname has a valid length) or the email's local part (only when that local part has at
    /// least 3 characters, so `a@x.io` does not forbid every password with an `a` in it).
    ///
    /// - Parameters:
    ///   - password: the password as typed.
    ///   - username: the nickname of the account, raw or normalized; `nil` when unknown.
    ///   - email: the email address of the account, raw or normalized; `nil` when unknown.
    public static func validate(_ password: String, username: String?, email: String?) -> [FieldErrorCode] {
        guard !password.isEmpty else { return [.required] }
        let length = password.nfc.scalarCount
        if length < minLength { return [.tooShort] }
        if length > maxLength { return [.tooLong] }
        var codes: [FieldErrorCode] = []
        if isCommon(password) { codes.append(.tooCommon) }
        if isSimilar(password, username: username, email: email) { codes.append(.tooSimilar) }
        return codes
    }

    /// Whether the lower-cased password (after NFC) is in the bundled common-password list.
    public static func isCommon(_ password: String) -> Bool {
        CommonPasswords.all.contains(password.nfc.lowercased())
    }

    private static func isSimilar(_ password: String, username: String?, email: String?) -> Bool {
        let haystack = password.caselessKey
        if let username {
            let name = UsernameRule.normalize(username)
            if (UsernameRule.minLength...UsernameRule.maxLength).contains(name.scalarCount),
                haystack.contains(UsernameRule.key(name))
            {
                return true
            }
        }
        if let email, let local = EmailRule.localPart(of: EmailRule.normalize(email)),
            local.unicodeScalars.count >= minSimilarLocalPartLength,
            haystack.contains(String(local).caselessKey)
        {
            return true
        }
        return false
    }
}
