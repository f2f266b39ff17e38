import Foundation
import TestSupport
import Testing

/// Databases for servers that share PostgreSQL: one fresh database per test on the cluster
/// `make test` starts (`ACCOUNT_TEST_POSTGRES_URL`).
enum Postgres {
    static let url = ProcessInfo.processInfo.environment["ACCOUNT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static var isConfigured: Bool { url != nil }

    /// A new empty database; its URL.
    static func freshDatabase() async throws -> String {
        guard let url, var components = URLComponents(string: url) else { throw TestFailure("ACCOUNT_TEST_POSTGRES_URL is not set") }
        let name = "e2e_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let (status, output) = try await run("/usr/bin/env", ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", "CREATE DATABASE \(name)"])
        guard status == 0 else { throw TestFailure("psql: \(output)") }
        components.path = "/" + name
        return components.string!
    }

    /// The pg-test-cluster script, for tests that stop and start a cluster of their own.
    static let clusterScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/pg-test-cluster.sh").path

    /// Runs a program to its end; its output (stdout and stderr) goes to a file read at the end.
    ///
    /// The exit is awaited through `terminationHandler`: `waitUntilExit` was seen to hang with
    /// several programs started at once, and blocking would starve the test's task pool.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (Int32, String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-run-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try launch(process) } catch { continuation.resume(throwing: error) }
        }
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// Runs the cluster script with `posix_spawn` on a thread of its own. The script leaves a
    /// PostgreSQL daemon behind; started through Foundation's `Process`, that daemon kept the
    /// test process from exiting.
    static func cluster(_ arguments: [String]) async throws -> (Int32, String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                let output = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-cluster-\(UUID().uuidString)").path
                defer { try? FileManager.default.removeItem(atPath: output) }
                var actions = posix_spawn_file_actions_t()
                posix_spawn_file_actions_init(&actions)
                defer { posix_spawn_file_actions_destroy(&actions) }
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
                let argv = (["/bin/bash", clusterScript] + arguments).map { strdup($0) } + [nil]
                defer { argv.forEach { free($0) } }
                var pid: pid_t = 0
                guard withLaunchLock({ posix_spawn(&pid, "/bin/bash", &actions, nil, argv, environ) }) == 0 else {
                    continuation.resume(throwing: TestFailure("cannot run \(clusterScript)"))
                    return
                }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
                continuation.resume(returning: (code, (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""))
            }
        }
    }
}
