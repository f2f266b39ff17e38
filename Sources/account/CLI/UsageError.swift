/// A command line `account` cannot run: an unknown command or option, or a value it needs and may
/// not ask for. Exit status 2.
struct UsageError: Error, Sendable {
    let message: String

    init(_ message: String) { self.message = message }
}
