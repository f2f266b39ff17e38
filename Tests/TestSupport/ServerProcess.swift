import Foundation
import Synchronization

/// The real `account-server` binary, started as a child process on a free loopback port with a
/// fresh SQLite file and a file mailer in a temporary folder: the server the SDK and terminal
/// client tests talk to.
///
/// ```swift
/// let server = try await ServerProcess.start(extraArguments: ["--allow-unverified-login"])
/// defer { Task { await server.stop() } }   // or `await server.stop()` at the end of the test
/// let client = AccountClient(baseURL: server.baseURL)
/// let code = try await server.latestCode(to: "minsu@example.com")
/// ```
public final class ServerProcess: Sendable {
    /// Why the server could not be started.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The temporary folder holding the database and the `mail` folder.
    public let folder: URL
    /// Where the file mailer writes `.eml` files.
    public var mailFolder: URL { folder.appendingPathComponent("mail") }

    private let process: Process
    private let output: Output

    private init(baseURL: URL, folder: URL, process: Process, output: Output) {
        self.baseURL = baseURL
        self.folder = folder
        self.process = process
        self.output = output
    }

    /// Starts the server and waits until it prints its address.
    /// - Parameter extraArguments: more options, e.g. `["--access-ttl", "30"]` or `["--allow-unverified-login"]`.
    public static func start(extraArguments: [String] = []) async throws -> ServerProcess {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("account-server-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = try Binaries.server()
        process.arguments = [
            "serve", "--port", "0", "--database-url", "sqlite:\(folder.path)/a.sqlite",
            "--mail", "file://\(folder.path)/mail", "--ip-rate-limit", "0", "--hash-memory", "64", "--hash-passes", "1",
            "--access-log", "off",
        ] + extraArguments
        var environment = ProcessInfo.processInfo.environment
        // The server reads ACCOUNT_* as option twins; these arguments must be all it gets.
        for name in environment.keys where name.hasPrefix("ACCOUNT_") { environment[name] = nil }
        process.environment = environment
        let output = Output()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        // Drain both pipes for the whole life of the process, so the server never blocks on a full pipe.
        for pipe in [stdout, stderr] {
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                // Empty means end of file: stop listening, or the handler would be called forever.
                if data.isEmpty { handle.readabilityHandler = nil } else { output.append(data) }
            }
        }
        try launch(process)

        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let url = output.listeningURL() {
                return ServerProcess(baseURL: url, folder: folder, process: process, output: output)
            }
            if !process.isRunning {
                throw StartError(description: "account-server exited (\(process.terminationStatus)): \(output.text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw StartError(description: "account-server did not print its address: \(output.text)")
    }

    // A test that throws before `stop()` must not leave a server running after the test process.
    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Sends SIGTERM, waits for the exit and removes the temporary folder.
    public func stop() async {
        if process.isRunning { process.terminate() }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The 6-digit code in the newest `.eml` to `email`, waiting up to `timeout` for one to arrive
    /// (delivery is asynchronous); `nil` when none came.
    public func latestCode(to email: String, timeout: Duration = .seconds(10)) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        repeat {
            if let text = newestMessage(to: email), let code = Self.code(inMessage: text) { return code }
            try await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        return nil
    }

    /// The text of every `.eml` to `email`, oldest first (names sort by time).
    public func messages(to email: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mailFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted().compactMap {
            try? String(contentsOf: mailFolder.appendingPathComponent($0), encoding: .utf8)
        }.filter { $0.contains("To: \(email)") }
    }

    private func newestMessage(to email: String) -> String? { messages(to: email).last }

    /// The only 6-digit number after the header block.
    public static func code(inMessage text: String) -> String? {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        guard let blank = normalized.range(of: "\n\n") else { return nil }
        let body = normalized[blank.upperBound...]
        guard let match = body.firstMatch(of: /(^|[^0-9])([0-9]{6})(?![0-9])/) else { return nil }
        return String(match.output.2)
    }
}

/// Everything the server printed, shared between the pipe handlers and the test.
private final class Output: Sendable {
    private let buffer = Mutex(Data())

    func append(_ data: Data) {
        guard !data.isEmpty else { return }
        buffer.withLock { $0.append(data) }
    }

    var text: String { String(decoding: buffer.withLock { $0 }, as: UTF8.self) }

    func listeningURL() -> URL? {
        guard let match = text.firstMatch(of: /account-server listening on (http:\/\/[0-9.:\[\]a-z]+)/) else { return nil }
        return URL(string: String(match.output.1))
    }
}
