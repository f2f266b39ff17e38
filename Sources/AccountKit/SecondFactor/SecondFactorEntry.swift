import AccountAPI

/// What a person types as a second factor: a 6-digit code from the authenticator app, or (after
/// "use a recovery code") one of the recovery codes. One value behind every form that asks for
/// the factor: the login's second step, turning it off, and a password change or account
/// deletion while it is on.
///
/// ```swift
/// var entry = SecondFactorEntry()
/// entry.code = "123 456"                // as an authenticator app shows it
/// entry.isComplete                      // true
/// entry.method = .recoveryCode          // "use a recovery code"
/// ```
public struct SecondFactorEntry: Sendable, Hashable {
    /// Which factor is typed.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        /// The authenticator app's 6-digit code.
        case authenticatorCode
        /// A recovery code.
        case recoveryCode
    }

    /// Which factor is typed; the other's text stays, unused.
    public var method: Method = .authenticatorCode
    /// The authenticator code as typed (spaces and hyphens are ignored).
    public var code = ""
    /// The recovery code as typed (letter case, spaces and hyphens are ignored).
    public var recoveryCode = ""

    /// An empty entry for `method`.
    public init(method: Method = .authenticatorCode) { self.method = method }

    /// The entry of a call's `code` and `recoveryCode`: the recovery code when one is given.
    init(code: String?, recoveryCode: String?) {
        method = recoveryCode != nil ? .recoveryCode : .authenticatorCode
        self.code = code ?? ""
        self.recoveryCode = recoveryCode ?? ""
    }

    /// The entry of a call's `code` and `recoveryCode`; `nil` when neither is given.
    init?(ifAny code: String?, recoveryCode: String?) {
        guard code != nil || recoveryCode != nil else { return nil }
        self.init(code: code, recoveryCode: recoveryCode)
    }

    /// The authenticator code as sent: the typed text without spaces and hyphens (`"123 456"` is `"123456"`).
    public var normalizedCode: String {
        String(code.unicodeScalars.filter { $0 != "-" && !$0.properties.isWhitespace })
    }

    /// Why the typed factor cannot be sent yet (empty when it can): ``CodeRule`` or ``RecoveryCodeRule``.
    public var problems: [FieldErrorCode] {
        switch method {
        case .authenticatorCode: CodeRule.validate(normalizedCode)
        case .recoveryCode: RecoveryCodeRule.validate(recoveryCode)
        }
    }

    /// Whether the typed factor is whole: six digits, or a recovery code's ten characters.
    public var isComplete: Bool { problems.isEmpty }

    /// The text of the method in use, as typed.
    public var text: String { method == .authenticatorCode ? code : recoveryCode }

    /// The wire field of the method in use: `code` or `recovery_code`.
    public var wireName: String { method == .authenticatorCode ? "code" : "recovery_code" }

    /// The request's `code` and `recovery_code`: the method in use, the other `nil`.
    public var wire: (code: String?, recoveryCode: String?) {
        switch method {
        case .authenticatorCode: (normalizedCode, nil)
        case .recoveryCode: (nil, recoveryCode.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// One answer to "code from your authenticator app, or a recovery code" (a terminal's single
    /// prompt): six digits are the authenticator's code, anything else a recovery code.
    public init(answer: String) {
        self.init(code: answer, recoveryCode: nil)
        if !CodeRule.validate(normalizedCode).isEmpty {
            method = .recoveryCode
            recoveryCode = answer
        }
    }

    /// What the field of the method in use needs, in `language`: the message for a missing or
    /// malformed entry ("Enter the 6-digit code from your authenticator app.").
    public func requirement(_ language: Language) -> String {
        switch method {
        case .authenticatorCode: SecondFactorTexts.enterAuthenticatorCode(language)
        case .recoveryCode: SecondFactorTexts.enterRecoveryCode(language)
        }
    }

    /// The message for a wrong factor of the method in use (`code_invalid`), in `language`.
    public func wrongMessage(_ language: Language) -> String {
        switch method {
        case .authenticatorCode: SecondFactorTexts.wrongAuthenticatorCode(language)
        case .recoveryCode: SecondFactorTexts.wrongRecoveryCode(language)
        }
    }
}

extension SecondFactorEntry: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["method": method.rawValue, "code": Redaction.hidden, "recoveryCode": Redaction.hidden]
    }
}
