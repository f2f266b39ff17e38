/// A form whose button can be pressed before every field is right (``SignUpForm``,
/// ``AppleSignUpForm``): the press sends nothing then, shows every field's errors, and
/// ``submitBlockers`` names what holds the form back under the button.
@MainActor public protocol SubmittableForm: AnyObject {
    /// A field of the form.
    associatedtype Field: FormField
    /// Whether the user has tried to submit.
    var submitAttempted: Bool { get }
    /// Whether the button can be pressed (nothing on its way, nothing done yet).
    var canPressSubmit: Bool { get }
    /// Whether every field is right and the request can be sent.
    var canSubmit: Bool { get }
    /// The messages under `field` as they show now.
    func errors(for field: Field) -> [String]
}

extension SubmittableForm {
    /// After a press that could not send, the first message of every field that holds the form
    /// back, in the form's order (an MBTI type never chosen included), to show under the button;
    /// empty before a press or once every field is right.
    public var submitBlockers: [String] {
        guard submitAttempted, canPressSubmit, !canSubmit else { return [] }
        return Field.allCases.compactMap { errors(for: $0).first }
    }
}
