/// A command line `account` cannot run: an unknown command or option, or a value it needs and may
/// not ask for, or one that breaks a rule. Exit status 2.
struct UsageError: Error, Sendable {
    let message: String
    /// The wire field a value was wrong for, when it is one (for `--json`).
    var field: String?

    init(_ message: String, field: String? = nil) {
        self.message = message
        self.field = field
    }
}
