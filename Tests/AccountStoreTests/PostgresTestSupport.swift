import Foundation
import TestSupport
import Testing

/// The PostgreSQL the tests use: the URL in `ACCOUNT_TEST_POSTGRES_URL`, set by `make test` after
/// `scripts/pg-test-cluster.sh start`. Without it the PostgreSQL suites are disabled, and say so.
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["ACCOUNT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static var isConfigured: Bool { url != nil }
    static let disabledNote: Comment = "ACCOUNT_TEST_POSTGRES_URL is not set (scripts/pg-test-cluster.sh start prints one)"

    /// Runs `body` with the URL of a new empty database, dropped afterwards.
    static func withDatabase(_ body: (String) async throws -> Void) async throws {
        guard let url else { throw SetupError("ACCOUNT_TEST_POSTGRES_URL is not set") }
        let name = "account_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await psql(url, "CREATE DATABASE \(name)")
        do {
            try await body(try replacingDatabase(of: url, with: name))
        } catch {
            try? await psql(url, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            throw error
        }
        try await psql(url, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    static func replacingDatabase(of url: String, with name: String) throws -> String {
        guard var components = URLComponents(string: url) else { throw SetupError("not a URL: \(url)") }
        components.path = "/" + name
        guard let result = components.string else { throw SetupError("cannot rewrite \(url)") }
        return result
    }

    /// Runs one SQL command through `psql`, so the tests need no C module of their own.
    static func psql(_ url: String, _ command: String) async throws {
        let result = try await run("/usr/bin/env", ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", command])
        guard result.status == 0 else { throw SetupError("psql failed: \(result.error)") }
    }

    /// Runs a program; returns its exit status, standard output and standard error.
    ///
    /// posix_spawn and waitpid rather than `Process`, whose `waitUntilExit` was seen to hang
    /// here when several tests ran programs at once.
    /// Runs a program to its end on a thread of its own: `waitpid` blocks, and blocking one of
    /// the few cooperative threads starves every other test (servers seemed not to start).
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(executable, arguments) })
            }
        }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pg-run-\(UUID().uuidString)").path
        let outputPath = base + ".out"
        let errorPath = base + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = withLaunchLock { posix_spawn(&pid, executable, &actions, nil, argv, environ) }
        guard spawned == 0 else { throw SetupError("cannot run \(executable): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw SetupError("waitpid failed: \(errno)") }
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        // Exited normally: the exit code is in bits 8-15; otherwise report the signal as negative.
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
        return (exitCode, output, error)
    }
}

/// A cluster of the test's own from `scripts/pg-test-cluster.sh`, which the test may stop and start.
struct PrivateCluster {
    let url: String
    let directory: String

    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/pg-test-cluster.sh").path

    static func start() async throws -> PrivateCluster {
        let lines = try await Self.command("start").split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { throw SetupError("pg-test-cluster.sh start printed \(lines)") }
        return PrivateCluster(url: lines[0], directory: lines[1])
    }

    /// Stops the server, keeping its data.
    func down() async throws { _ = try await Self.command("down", directory) }
    /// Starts the server again on the same port.
    func up() async throws { _ = try await Self.command("up", directory) }
    /// Stops the server and removes the cluster.
    func remove() async throws { _ = try await Self.command("stop", directory) }

    private static func command(_ arguments: String...) async throws -> String {
        let result = try await PostgresTestServer.run("/bin/bash", [script] + arguments)
        guard result.status == 0 else { throw SetupError("pg-test-cluster.sh \(arguments.joined(separator: " ")): \(result.error)") }
        return result.output
    }
}

/// Test setup that could not be done.
struct SetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
