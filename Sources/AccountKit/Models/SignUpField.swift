/// A field of the sign-up form (``SignUpForm``).
public enum SignUpField: String, FormField {
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
}
