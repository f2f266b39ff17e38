import AccountAPI
import AccountKit
import Foundation

/// Parses the command line, runs the command, and turns every failure into a message and a status.
enum Runner {
    static func run(arguments: [String], environment: [String: String]) async -> ExitStatus {
        let console = Console()
        let language = Settings.language(environment)
        do {
            let invocation = try Invocation.parse(arguments)
            if invocation.has("help") {
                console.out(invocation.command.map(Help.text(for:)) ?? Help.general)
                return .success
            }
            guard let command = invocation.command else {
                console.err(Help.general)
                return .usage
            }
            let context = Context(invocation: invocation, settings: try Settings(invocation: invocation, environment: environment))
            try await run(command, context)
            return .success
        } catch let error as UsageError {
            console.err("account: \(error.message)\nRun 'account --help' for usage.")
            return .usage
        } catch let error as AccountError {
            console.err(message(for: error, language))
            if case .transport = error { return .unreachable }
            return .refused
        } catch let error as CredentialStoreError {
            console.err(error.description(in: language))
            return .refused
        } catch {
            console.err("account: \(error)")
            return .refused
        }
    }

    private static func run(_ command: Command, _ context: Context) async throws {
        switch command {
        case .signup: try await SignUpCommand.run(context)
        case .verify: try await VerifyCommand.run(context)
        case .login: try await LoginCommand.run(context)
        case .whoami: try await WhoAmICommand.run(context)
        case .logout: try await LogoutCommand.run(context)
        case .sessions: try await SessionsCommand.run(context)
        case .passwd: try await PasswdCommand.run(context)
        }
    }

    /// The localized description; for invalid input, every field's messages, one per line.
    static func message(for error: AccountError, _ language: Language) -> String {
        let fields = error.fieldErrors
        guard !fields.isEmpty else { return error.description(in: language) }
        return fields.keys.sorted().flatMap { field in
            (fields[field] ?? []).map { "\(field): \($0.message)" }
        }.joined(separator: "\n")
    }
}
