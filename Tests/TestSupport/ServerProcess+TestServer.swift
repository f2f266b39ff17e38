import Foundation
import Testing

extension ServerProcess: TestServer {
    public func send(_ request: TestRequest) async throws -> Reply { try await client.send(request) }

    /// The database it serves: the last `--database-url` of its command line.
    public var databaseURL: String {
        let options = arguments.indices.filter { arguments[$0] == "--database-url" && $0 + 1 < arguments.count }
        return options.last.map { arguments[$0 + 1] } ?? "sqlite:\(folder.database.path)"
    }

    /// Read from its SQLite file by the `sqlite3` program, as an operator would.
    public func rowCounts() async throws -> [String: Int] {
        guard databaseURL.hasPrefix("sqlite:") else { throw TestFailure("row counts are read from SQLite only, not \(databaseURL)") }
        let path = String(databaseURL.dropFirst("sqlite:".count))
        let listed = try await Program.run("sqlite3", [path, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name;"])
        try #require(listed.status.isSuccess, "sqlite3: \(listed.stderr)")
        let tables = listed.stdout.split(separator: "\n").map(String.init).filter { !Self.tablesWrittenWithoutRequests.contains($0) }
        guard !tables.isEmpty else { throw TestFailure("no tables in \(path)") }
        let query = tables.map { "SELECT '\($0)', COUNT(*) FROM \($0)" }.joined(separator: " UNION ALL ") + ";"
        let counted = try await Program.run("sqlite3", ["-separator", " ", path, query])
        try #require(counted.status.isSuccess, "sqlite3: \(counted.stderr)")
        var counts: [String: Int] = [:]
        for line in counted.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let count = Int(parts[1]) { counts[String(parts[0])] = count }
        }
        guard counts.count == tables.count else { throw TestFailure("sqlite3 counted \(counted.stdout)") }
        return counts
    }

    /// `account-server admin grant` on its database.
    public func grantAdmin(_ username: String) async throws {
        let grant = try await runServerCommand(["admin", "grant", username, "--reason", "tests", "--database-url", databaseURL])
        guard grant.status.isSuccess else { throw TestFailure("admin grant \(username): \(grant)") }
    }

    public func stopServer(sourceLocation: SourceLocation) async { await stop(sourceLocation: sourceLocation) }
}

extension ServerProcess {
    /// The binary as a ``TestServerKind``: each server in a folder of its own, on a clock of its
    /// own (its `--clock-file`).
    public struct Kind: TestServerKind {
        public init() {}

        public var description: String { "the server binary" }

        public func start(_ options: [String]) async throws -> any TestServer {
            let folder = try TemporaryFolder()
            return try await ServerProcess.start(in: folder, clock: try TestClock(in: folder), options)
        }
    }
}
