/// A field of one of the flow models' forms, with its name on the wire (the keys of a
/// `validation_failed` problem's `errors`), so a server's field errors land on the form's own
/// field type (``AccountError/fieldErrors(as:)``) instead of on strings.
public protocol FormField: Hashable, Sendable, CaseIterable {
    /// The field's name on the wire (`"password_confirmation"`).
    var wireName: String { get }
}

extension FormField {
    /// The field a wire name stands for, if the form has it.
    public init?(wireName: String) {
        guard let field = Self.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = field
    }
}
