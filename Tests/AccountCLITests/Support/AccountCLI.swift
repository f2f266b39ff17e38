import Foundation
import TestSupport

/// What one run of `account` did.
struct CLIResult: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// Runs the built `account` binary as a child process, against one server, with its own config
/// folder (so tests never touch the user's session) and a chosen locale.
struct AccountCLI: Sendable {
    struct Hung: Error, CustomStringConvertible {
        let description: String
    }

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
    func run(_ arguments: [String], stdin: String = "") async throws -> CLIResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("account-cli-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Files, not pipes: nothing to drain, and the run's input is all there from the start.
        let input = scratch.appendingPathComponent("stdin")
        let output = scratch.appendingPathComponent("stdout")
        let errors = scratch.appendingPathComponent("stderr")
        try Data(stdin.utf8).write(to: input)
        for file in [output, errors] { try Data().write(to: file) }
        let process = Process()
        process.executableURL = try Binaries.client()
        process.arguments = arguments
        process.environment = environment
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try launch(process)
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw Hung(description: "account \(arguments.joined(separator: " ")) still running after 60 s")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return CLIResult(
            status: process.terminationStatus,
            stdout: try String(contentsOf: output, encoding: .utf8),
            stderr: try String(contentsOf: errors, encoding: .utf8))
    }

    /// Starts `account arguments` on a pseudo-terminal with this client's environment.
    func terminal(_ arguments: [String]) throws -> PseudoTerminal {
        try PseudoTerminal(executable: try Binaries.client(), arguments: arguments, environment: environment)
    }

    /// Removes the config folder.
    func cleanUp() { try? FileManager.default.removeItem(at: configDirectory) }
}
