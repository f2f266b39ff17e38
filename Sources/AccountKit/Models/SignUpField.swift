/// A field of the sign-up form.
public enum SignUpField: String, CaseIterable, Sendable, Hashable {
    /// The nickname.
    case username
    /// The email address.
    case email
    /// The password.
    case password
    /// The password typed again.
    case passwordConfirmation
    /// The MBTI type.
    case mbti

    /// The field's name on the wire (keys of a `validation_failed` problem's `errors`).
    public var wireName: String {
        switch self {
        case .passwordConfirmation: "password_confirmation"
        default: rawValue
        }
    }

    /// The field a wire name stands for, if the form has it.
    public init?(wireName: String) {
        guard let field = Self.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = field
    }
}
