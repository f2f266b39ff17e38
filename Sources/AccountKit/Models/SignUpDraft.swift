import AccountAPI

/// What the person typed on the sign-up details (``SignUpForm``) besides the address: kept while
/// the address is proven again (its proof ran out), and typed back in when the details show again
/// (``SignUpForm/restore(_:)``). It prints without the nickname and the passwords.
///
/// ```swift
/// let draft = form.draft                  // "주소 다시 인증하기"
/// // … the address is proven again …
/// newForm.restore(draft)                  // nickname, MBTI type and passwords as they were
/// ```
public struct SignUpDraft: Sendable, Equatable {
    /// The nickname.
    public var username = ""
    /// The password.
    public var password = ""
    /// The password again.
    public var passwordConfirmation = ""
    /// The MBTI type, if one was chosen.
    public var mbti: MBTI?
    /// The fields that had been edited (their errors show again as they did).
    public var touched: Set<SignUpField> = []

    /// An empty draft.
    public init() {}

    /// Whether anything was typed or chosen.
    public var isEmpty: Bool {
        username.isEmpty && password.isEmpty && passwordConfirmation.isEmpty && mbti == nil
    }
}

extension SignUpDraft: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The draft, without what was typed.
    public var description: String { "SignUpDraft(<redacted>)" }
    /// The draft, without what was typed.
    public var debugDescription: String { description }
    /// The draft, without what was typed, for `dump` and debuggers.
    public var customMirror: Mirror { Mirror(self, children: ["fields": Redaction.hidden], displayStyle: .struct) }
}
