/// A field of the sign-up form.
public enum SignUpField: String, CaseIterable, Sendable, Hashable {
    case username, email, password, passwordConfirmation, mbti

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
