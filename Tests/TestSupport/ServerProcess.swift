import Foundation
import Testing

/// The real `account-server` binary, serving on a free loopback port over a test folder's SQLite
/// file and file mailer: the one way tests start the server as a process, and the binary's
/// ``TestServer``.
///
/// ```swift
/// let server = try await ServerProcess.start(["--access-ttl", "30"])
/// let reply = try await server.send("GET", "/auth/policy")
/// let code = try await server.mail.code(to: "minsu@example.com")
/// await server.stop()
/// ```
public final class ServerProcess: Sendable {
    public let child: ChildProcess
    /// The database, mail and clock file; other servers may share it.
    public let folder: TemporaryFolder
    public let port: Int
    /// A URLSession client of this server.
    public let client: HTTPClient
    /// The clock given at start (its `--clock-file`); without one, the real time, which a test
    /// cannot move.
    public let clock: TestClock
    /// The command line it was started with, after the binary's path.
    public let arguments: [String]

    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { client.base }
    /// The messages the server mailed.
    public var mail: MailFolder { MailFolder(folder: folder.mail) }

    /// Options every test server gets: a free port, the folder's SQLite file and mail folder, no
    /// per-address limit (tests send many requests from one address) and cheap hashing.
    public static func baseArguments(_ folder: TemporaryFolder) -> [String] {
        [
            "serve", "--port", "0", "--database-url", "sqlite:\(folder.database.path)",
            "--mail", "file://\(folder.mail.path)", "--ip-rate-limit", "0", "--hash-memory", "64", "--hash-passes", "1",
        ]
    }

    private init(child: ChildProcess, folder: TemporaryFolder, port: Int, clock: TestClock, arguments: [String]) {
        self.child = child
        self.folder = folder
        self.port = port
        self.clock = clock
        self.arguments = arguments
        client = HTTPClient(port: port)
    }

    /// Starts a server and waits (at most 60 s) for its `listening on` line.
    ///
    /// Later arguments win, so `extra` may override the base options (`--hash-passes 20`).
    /// With `clock`, the server reads its time from the clock's file (`--clock-file`), so the
    /// test moves it; other servers of the folder may share it.
    /// `environment` adds variables (`ACCOUNT_*` option twins); with `umask`, the server runs
    /// under that file-mode mask (through `/bin/sh`). With `holdingStandardError`, nothing reads
    /// its stderr until `child.standardError.release()`.
    public static func start(
        in folder: TemporaryFolder? = nil, clock: TestClock? = nil, _ extra: [String] = [], environment: [String: String] = [:],
        umask: mode_t? = nil, holdingStandardError: Bool = false
    ) async throws -> ServerProcess {
        let folder = try folder ?? TemporaryFolder()
        let binary = try Binaries.server()
        let arguments = baseArguments(folder) + (clock?.serverArguments ?? []) + extra
        let child = if let umask {
            try ChildProcess(
                arguments: ["-c", "umask \(String(umask, radix: 8)) && exec \"$0\" \"$@\"", binary.path] + arguments,
                binary: URL(fileURLWithPath: "/bin/sh"), environment: environment)
        } else {
            try ChildProcess(arguments: arguments, binary: binary, environment: environment, holdingStandardError: holdingStandardError)
        }
        // Generous: a loaded CI machine starting dozens of servers at once can be slow, and the
        // line is looked for once more after the deadline, in case this task itself was starved.
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            if let port = listeningPort(in: child.standardOutput.text) {
                let serverClock = clock ?? TestClock(fixedBecause: "the server was started without a clock (ServerProcess.start(clock:))")
                return ServerProcess(child: child, folder: folder, port: port, clock: serverClock, arguments: arguments)
            }
            if child.hasExited || ContinuousClock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        child.send(SIGKILL)
        throw TestFailure("account-server did not say where it listens within 60 s\n\(child.transcript)")
    }

    /// The port of `account-server listening on http://127.0.0.1:PORT`.
    static func listeningPort(in output: String) -> Int? {
        guard let match = output.firstMatch(of: /account-server listening on http:\/\/127\.0\.0\.1:([0-9]+)\n/) else { return nil }
        return Int(match.output.1)
    }

    /// Everything the server wrote to stdout and stderr so far.
    public var logs: String { child.standardOutput.text + child.standardError.text }

    /// Stops with SIGTERM and expects a clean exit (status 0) within 15 s.
    public func stop(sourceLocation: SourceLocation = #_sourceLocation) async {
        child.send(SIGTERM)
        let status = await child.exitStatus(timeout: 15)
        #expect(status == ExitStatus(code: 0, signaled: false), "after SIGTERM\n\(child.transcript)", sourceLocation: sourceLocation)
        if status == nil { child.send(SIGKILL) }
        await drained()
    }

    /// Kills with SIGKILL (no chance to clean up) and waits for the end.
    public func kill9(sourceLocation: SourceLocation = #_sourceLocation) async {
        child.send(SIGKILL)
        let status = await child.exitStatus(timeout: 15)
        #expect(status == ExitStatus(code: SIGKILL, signaled: true), "after SIGKILL", sourceLocation: sourceLocation)
        await drained()
    }

    /// Waits until both pipes reached their end, so `logs` is complete.
    public func drained() async {
        for _ in 0..<200 where !(child.standardOutput.isFinished && child.standardError.isFinished) {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
