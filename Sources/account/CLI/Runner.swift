import AccountAPI
import AccountKit
import Foundation

/// Parses the command line, runs the command, and turns every failure into a message and a status.
enum Runner {
    static func run(arguments: [String], environment: [String: String]) async -> ExitStatus {
        let console = Console()
        let language = Settings.language(environment)
        // Known before parsing, so even a usage error answers in JSON.
        let json = arguments.contains("--json")
        var server: URL?
        do {
            let invocation = try Invocation.parse(arguments, language: language)
            if invocation.has("version") {
                console.out("account \(Version.number)")
                return .success
            }
            if invocation.has("help") {
                console.out(invocation.command.map { Help.text(for: $0, language) } ?? Help.general(language))
                return .success
            }
            guard let command = invocation.command else {
                console.err(Help.general(language))
                return .usage
            }
            let settings = try Settings(invocation: invocation, environment: environment)
            server = settings.server
            try await run(command, Context(invocation: invocation, settings: settings))
            return .success
        } catch {
            let failure = Failure.of(error, server: server, language)
            console.err(failure.text)
            if json { console.out(failure.json()) }
            return failure.status
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
        case .mfa: try await MFACommand.run(context)
        case .history: try await HistoryCommand.run(context)
        }
    }
}
