import Foundation
import Testing

/// The PostgreSQL the tests use: the cluster `make test` starts, whose URL is in
/// `ACCOUNT_TEST_POSTGRES_URL`. Without it the PostgreSQL tests are disabled, and say so.
public enum PostgresTestServer {
    public static let url = ProcessInfo.processInfo.environment["ACCOUNT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    public static var isConfigured: Bool { url != nil }
    public static let disabledNote: Comment = "ACCOUNT_TEST_POSTGRES_URL is not set (make test sets it; scripts/pg-test-cluster.sh start prints one)"

    /// A new empty database on the cluster; its URL. It goes with the cluster at the end of the run.
    public static func freshDatabase() async throws -> String { try await create().url }

    /// Runs `body` with the URL of a new empty database, dropped afterwards.
    public static func withDatabase(_ body: (String) async throws -> Void) async throws {
        let (name, database) = try await create()
        do {
            try await body(database)
        } catch {
            try? await psql(url!, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            throw error
        }
        try await psql(url!, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    private static func create() async throws -> (name: String, url: String) {
        guard let url, var components = URLComponents(string: url) else { throw TestFailure("ACCOUNT_TEST_POSTGRES_URL is not set or not a URL") }
        let name = "account_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await psql(url, "CREATE DATABASE \(name)")
        components.path = "/" + name
        guard let database = components.string else { throw TestFailure("cannot rewrite \(url)") }
        return (name, database)
    }

    /// Runs SQL through `psql` on the database at `url`, so tests need no C module of their own.
    public static func psql(_ url: String, _ command: String) async throws {
        let result = try await Program.run("psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", command])
        guard result.status == 0 else { throw TestFailure("psql failed: \(result.stderr)") }
    }
}

/// A cluster of the test's own from `scripts/pg-test-cluster.sh`, which the test may stop and
/// start; `make test` stops it at the end of the run if the test could not.
public struct PrivateCluster: Sendable {
    public let url: String
    public let directory: String

    public static func start() async throws -> PrivateCluster {
        let lines = try await command("start").split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { throw TestFailure("pg-test-cluster.sh start printed \(lines)") }
        return PrivateCluster(url: lines[lines.count - 2], directory: lines[lines.count - 1])
    }

    /// Stops the server, keeping its data.
    public func down() async throws { _ = try await Self.command("down", directory) }
    /// Starts the server again on the same port.
    public func up() async throws { _ = try await Self.command("up", directory) }
    /// Stops the server and removes the cluster.
    public func remove() async throws { _ = try await Self.command("stop", directory) }

    /// Runs the script; its standard output. (It leaves a PostgreSQL daemon behind, which is
    /// why it runs through ``Program``, never `Process`.)
    private static func command(_ arguments: String...) async throws -> String {
        let result = try await Program.run("/bin/bash", [PackageFiles.url("scripts/pg-test-cluster.sh").path] + arguments)
        guard result.status == 0 else { throw TestFailure("pg-test-cluster.sh \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result.stdout
    }
}
