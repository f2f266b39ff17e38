import AccountAPI

/// What one command line asked for, after parsing.
struct Invocation: Sendable, Equatable {
    /// `nil` for a bare `account --help`.
    var command: Command?
    /// The word after a command that has them (`enable` in `account mfa enable`).
    var subcommand: String?
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
    /// Accepts `--name value` and `--name=value`; `-h` is `--help`. An unknown command or option
    /// names the nearest known one.
    static func parse(_ arguments: [String], language: Language) throws(UsageError) -> Invocation {
        let say = { (english: String, korean: String) in language == .ko ? korean : english }
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
                if let command = invocation.command, !command.subcommands.isEmpty, invocation.subcommand == nil {
                    invocation.subcommand = argument
                    continue
                }
                guard invocation.command == nil else {
                    throw UsageError(say("unexpected argument '\(argument)'", "예상하지 못한 인자 '\(argument)'"))
                }
                guard let command = Command(rawValue: argument) else {
                    let hint = Suggestion.nearest(to: argument, in: Command.allCases.map(\.rawValue))
                    throw UsageError(
                        say("unknown command '\(argument)'", "알 수 없는 명령 '\(argument)'")
                            + (hint.map { say(". Did you mean '\($0)'?", ". \(KoreanParticle.object.attached(to: "'\($0)'")) 찾으셨나요?") } ?? ""))
                }
                invocation.command = command
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            if allFlags.contains(name) {
                guard inlineValue == nil else {
                    throw UsageError(say("option '--\(name)' takes no value", "'--\(name)' 옵션에는 값을 줄 수 없어요"))
                }
                invocation.flags.insert(name)
            } else if allValues.contains(name) {
                if let inlineValue {
                    invocation.values[name] = inlineValue
                } else {
                    // A following option is a forgotten value, not the value itself.
                    guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                        throw UsageError(say("option '--\(name)' needs a value", "'--\(name)' 옵션에 값이 필요해요"))
                    }
                    invocation.values[name] = arguments[index]
                    index += 1
                }
            } else {
                throw invocation.unknownOption(name, arguments: arguments[index...], say: say)
            }
        }
        try invocation.checkOptionsBelong(say: say)
        return invocation
    }

    /// "unknown option '--emial'. Did you mean '--email'?", among the options of the command when
    /// it is known (also when it comes later on the line).
    private func unknownOption(
        _ name: String, arguments: ArraySlice<String>, say: (String, String) -> String
    ) -> UsageError {
        let command = self.command ?? arguments.lazy.compactMap(Command.init(rawValue:)).first
        let globals = GlobalOptions.values.union(GlobalOptions.flags)
        let everyOption = globals.union(Command.allCases.flatMap { $0.valueOptions.union($0.flagOptions) })
        let own = command.map { globals.union($0.valueOptions).union($0.flagOptions) } ?? everyOption
        let hint = Suggestion.nearest(to: name, in: own) ?? Suggestion.nearest(to: name, in: everyOption)
        return UsageError(
            say("unknown option '--\(name)'", "알 수 없는 옵션 '--\(name)'")
                + (hint.map { say(". Did you mean '--\($0)'?", ". \(KoreanParticle.object.attached(to: "'--\($0)'")) 찾으셨나요?") } ?? ""))
    }

    /// Refuses options that exist but not for this command (`whoami --all`).
    private func checkOptionsBelong(say: (String, String) -> String) throws(UsageError) {
        let allowedValues = GlobalOptions.values.union(command?.valueOptions ?? [])
        let allowedFlags = GlobalOptions.flags.union(command?.flagOptions ?? [])
        let subject = command.map { "'\($0.rawValue)'" } ?? say("account without a command", "명령 없는 account")
        for name in values.keys.sorted() + flags.sorted() where !allowedValues.contains(name) && !allowedFlags.contains(name) {
            throw UsageError(say("option '--\(name)' does not apply to \(subject)", "'--\(name)' 옵션은 \(subject)에 쓸 수 없어요"))
        }
    }
}
