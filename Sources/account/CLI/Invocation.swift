/// What one command line asked for, after parsing.
struct Invocation: Sendable, Equatable {
    /// `nil` for a bare `account --help`.
    var command: Command?
    /// Options with a value, by name without dashes; the last occurrence wins.
    var values: [String: String] = [:]
    /// Switches that were given, by name without dashes.
    var flags: Set<String> = []

    /// The value of `--name`, if given.
    func value(_ name: String) -> String? { values[name] }

    /// Whether `--name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// Reads `account [global options] <command> [options]`; global options may come anywhere.
    ///
    /// Accepts `--name value` and `--name=value`; `-h` is `--help`.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var invocation = Invocation()
        let allValues = GlobalOptions.values.union(Command.allCases.flatMap(\.valueOptions))
        let allFlags = GlobalOptions.flags.union(Command.allCases.flatMap(\.flagOptions))
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" {
                invocation.flags.insert("help")
                continue
            }
            guard argument.hasPrefix("--") else {
                guard invocation.command == nil else { throw UsageError("unexpected argument '\(argument)'") }
                guard let command = Command(rawValue: argument) else { throw UsageError("unknown command '\(argument)'") }
                invocation.command = command
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            if allFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("option '--\(name)' takes no value") }
                invocation.flags.insert(name)
            } else if allValues.contains(name) {
                if let inlineValue {
                    invocation.values[name] = inlineValue
                } else {
                    // A following option is a forgotten value, not the value itself.
                    guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                        throw UsageError("option '--\(name)' needs a value")
                    }
                    invocation.values[name] = arguments[index]
                    index += 1
                }
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
        try invocation.checkOptionsBelong()
        return invocation
    }

    /// Refuses options that exist but not for this command (`whoami --all`).
    private func checkOptionsBelong() throws(UsageError) {
        let allowedValues = GlobalOptions.values.union(command?.valueOptions ?? [])
        let allowedFlags = GlobalOptions.flags.union(command?.flagOptions ?? [])
        let subject = command.map { "'\($0.rawValue)'" } ?? "account without a command"
        for name in values.keys.sorted() where !allowedValues.contains(name) {
            throw UsageError("option '--\(name)' does not apply to \(subject)")
        }
        for name in flags.sorted() where !allowedFlags.contains(name) {
            throw UsageError("option '--\(name)' does not apply to \(subject)")
        }
    }
}
