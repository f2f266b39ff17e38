/// What `print`, `String(describing:)`, `String(reflecting:)`, `dump` and the debugger show of a
/// value that holds an email address, a password, a code or a token: its type and harmless
/// members, with `<redacted>` in place of the rest, so a log line or a crash report never carries
/// them. The values themselves are untouched (encoding, `==` and the properties see everything).
///
/// ```swift
/// print(user)   // User(id: 5F0B…, username: "민수", email: <redacted>, emailVerified: true, mbti: ENFP, …)
/// ```
package enum Redaction {
    /// Shown in place of a secret.
    package static let hidden = Hidden()

    /// A placeholder that prints as `<redacted>` in descriptions and dumps alike.
    package struct Hidden: CustomStringConvertible, CustomDebugStringConvertible, Sendable {
        package var description: String { "<redacted>" }
        package var debugDescription: String { description }
    }

    /// `Type(name: value, …)`, each value as `String(reflecting:)` shows it (an optional unwrapped).
    package static func describe(_ type: String, _ members: KeyValuePairs<String, Any>) -> String {
        let parts = members.map { "\($0.key): \(text(of: $0.value))" }
        return "\(type)(\(parts.joined(separator: ", ")))"
    }

    private static func text(of value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return String(reflecting: value) }
        return mirror.children.first.map { text(of: $0.value) } ?? "nil"
    }

    /// A mirror of `subject` with only `members`, so `dump` shows no more than the description.
    package static func mirror(_ subject: Any, _ members: KeyValuePairs<String, Any>) -> Mirror {
        Mirror(subject, children: members.map { (label: Optional($0.key), value: $0.value) }, displayStyle: .struct)
    }

    /// The value, or `nil` as `nil`, hidden either way only when present.
    package static func secret(_ value: String?) -> Any { value == nil ? Optional<String>.none as Any : hidden }
}

/// A value that prints, dumps and reflects as ``Redaction`` says: only ``redactedMembers``.
package protocol Redacting: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The members shown, in order, with ``Redaction/hidden`` in place of every secret.
    var redactedMembers: KeyValuePairs<String, Any> { get }
}

extension Redacting {
    /// The value without its secrets (email addresses, passwords, codes, tokens).
    public var description: String { Redaction.describe(String(describing: Self.self), redactedMembers) }
    /// The value without its secrets, as ``description``.
    public var debugDescription: String { description }
    /// The value without its secrets, for `dump` and debuggers.
    public var customMirror: Mirror { Redaction.mirror(self, redactedMembers) }
}

// MARK: Wire types that hold secrets or an address

extension User: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["id": id, "username": username, "email": Redaction.hidden, "emailVerified": emailVerified, "mbti": mbti.rawValue, "createdAt": createdAt, "mfa": mfa as Any]
    }
}

extension TokenPair: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["access": Redaction.hidden, "refresh": Redaction.hidden, "tokenType": tokenType, "expiresIn": expiresIn,
         "refreshExpiresIn": refreshExpiresIn, "user": user]
    }
}

extension EmailVerified: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["email": Redaction.hidden, "verified": verified, "emailVerificationToken": Redaction.hidden, "session": session as Any]
    }
}

extension SignUpRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["username": username as Any, "email": Redaction.secret(email), "password": Redaction.secret(password),
         "passwordConfirmation": Redaction.secret(passwordConfirmation), "mbti": mbti as Any,
         "emailVerificationToken": Redaction.secret(emailVerificationToken)]
    }
}

extension LoginRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["username": username as Any, "email": Redaction.secret(email), "login": Redaction.secret(login), "password": Redaction.secret(password)]
    }
}

extension RefreshRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["refresh": Redaction.secret(refresh)]
    }
}

extension EmailVerifyRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["email": Redaction.secret(email), "code": Redaction.secret(code), "signIn": signIn as Any,
         "signUpToken": Redaction.secret(signUpToken)]
    }
}

extension EmailCodeRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["email": Redaction.secret(email), "purpose": purpose as Any]
    }
}

extension EmailCodeSent: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["email": Redaction.hidden, "expiresIn": expiresIn]
    }
}

extension SignUpAccepted: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["email": Redaction.hidden, "verification": verification, "expiresIn": expiresIn,
         "signUpToken": Redaction.secret(signUpToken)]
    }
}

extension ChangePasswordRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["newPassword": Redaction.secret(newPassword), "proof": proof]
    }
}

extension PasswordResetRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["email": Redaction.secret(email)]
    }
}

extension PasswordResetConfirmRequest: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["email": Redaction.secret(email), "code": Redaction.secret(code), "newPassword": Redaction.secret(newPassword)]
    }
}

