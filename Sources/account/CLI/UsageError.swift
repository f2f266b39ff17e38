import AccountAPI

/// A command line `account` cannot run: an unknown command or option, or a value it needs and may
/// not ask for (exit status 2); or a value given that breaks a rule, refused before anything is
/// sent as the server would refuse it (exit status 1, the field in `--json`).
struct UsageError: Error, Sendable {
    let message: String
    /// The field and its error, when a given value broke a rule.
    var refused: (field: String, error: FieldError)?

    init(_ message: String) { self.message = message }

    /// `field`'s value breaks a rule: "nickname: Use at least 2 characters."
    init(refusing field: String, _ error: FieldError, _ language: Language) {
        message = FieldLabel.line(field, error.message, language)
        refused = (field, error)
    }
}
