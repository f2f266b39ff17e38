import Foundation
import TestSupport

/// Runs the built `account` binary as a child process, against one server, with its own config
/// folder (so tests never touch the user's session) and a chosen locale.
struct AccountCLI: Sendable {
    let server: URL
    /// Where this client keeps its session (`ACCOUNT_CONFIG_DIR`).
    let configDirectory: URL
    /// Locale variables of the runs (`LANG`, `LC_ALL`, …).
    var locale = ["LANG": "C.UTF-8"]
    /// More variables of the runs (`TZ`, `HOME`, `XDG_CONFIG_HOME`, …).
    var extraEnvironment: [String: String] = [:]
    /// Whether runs get `ACCOUNT_CONFIG_DIR` (off: the client finds its folder from `HOME` or `XDG_CONFIG_HOME`).
    var setsConfigDirectory = true

    init(server: URL) {
        self.server = server
        configDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("account-cli-config-\(UUID().uuidString)")
    }

    /// The credentials file `FileCredentialStore` writes in the config folder.
    var credentialsFile: URL { configDirectory.appendingPathComponent("credentials.json") }

    /// The keys of the sessions the credentials file holds (one per server); none without a file.
    var storedSessions: [String] { storedKeys.filter { !$0.hasSuffix(".signup") } }

    /// The keys of the sign-up tokens the credentials file holds, kept until their code is verified.
    var storedSignUps: [String] { storedKeys.filter { $0.hasSuffix(".signup") } }

    private var storedKeys: [String] {
        guard let data = try? Data(contentsOf: credentialsFile),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        return object.keys.sorted()
    }

    /// The environment of a run: the test's own, minus any locale and ACCOUNT_* it had.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in environment.keys where name.hasPrefix("ACCOUNT_") || name.hasPrefix("LC_") || name == "LANG" {
            environment[name] = nil
        }
        environment["ACCOUNT_SERVER"] = server.absoluteString
        if setsConfigDirectory { environment["ACCOUNT_CONFIG_DIR"] = configDirectory.path }
        environment.merge(locale) { _, new in new }
        environment.merge(extraEnvironment) { _, new in new }
        return environment
    }

    /// Runs `account arguments` with `stdin` as its whole standard input, to its end.
    func run(_ arguments: [String], stdin: String = "") async throws -> ProgramResult {
        try await Program.run(try Binaries.client().path, arguments, environment: environment, stdin: stdin)
    }

    /// Starts `account arguments` on a pseudo-terminal with this client's environment.
    func terminal(_ arguments: [String]) throws -> PseudoTerminal {
        try PseudoTerminal(executable: try Binaries.client(), arguments: arguments, environment: environment)
    }

    /// Removes the config folder.
    func cleanUp() { try? FileManager.default.removeItem(at: configDirectory) }
}
