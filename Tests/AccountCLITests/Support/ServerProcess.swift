import Foundation
import TestSupport
import Synchronization

/// The real `account-server`, started as a child process on a free loopback port with a fresh
/// SQLite file and a file mailer in a temporary folder. (A copy of AccountKitTests' launcher:
/// test targets cannot share files.)
final class ServerProcess: Sendable {
    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// `http://127.0.0.1:PORT`.
    let baseURL: URL
    /// The temporary folder holding the database and the `mail` folder.
    let folder: URL
    var mailFolder: URL { folder.appendingPathComponent("mail") }

    private let process: Process
    private let output: Output

    private init(baseURL: URL, folder: URL, process: Process, output: Output) {
        self.baseURL = baseURL
        self.folder = folder
        self.process = process
        self.output = output
    }

    /// Starts the server and waits until it prints its address.
    static func start(extraArguments: [String] = []) async throws -> ServerProcess {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("account-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = try Binaries.server()
        process.arguments = [
            "serve", "--port", "0", "--database-url", "sqlite:\(folder.path)/a.sqlite",
            "--mail", "file://\(folder.path)/mail", "--ip-rate-limit", "0", "--hash-memory", "64", "--hash-passes", "1",
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

    /// Sends SIGTERM, waits for the exit and removes the temporary folder.
    func stop() async {
        if process.isRunning { process.terminate() }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The 6-digit code in the newest `.eml` to `email`, waiting a while for delivery (it is
    /// asynchronous); `nil` when none came.
    func latestCode(to email: String) async throws -> String? {
        let deadline = ContinuousClock.now + .seconds(10)
        repeat {
            if let text = messages(to: email).last, let code = Self.code(inMessage: text) { return code }
            try await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        return nil
    }

    /// The text of every `.eml` to `email`, oldest first (names sort by time).
    func messages(to email: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mailFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted().compactMap {
            try? String(contentsOf: mailFolder.appendingPathComponent($0), encoding: .utf8)
        }.filter { $0.contains("To: \(email)") }
    }

    /// The only 6-digit number after the header block.
    static func code(inMessage text: String) -> String? {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        guard let blank = normalized.range(of: "\n\n") else { return nil }
        guard let match = normalized[blank.upperBound...].firstMatch(of: /(^|[^0-9])([0-9]{6})(?![0-9])/) else { return nil }
        return String(match.output.2)
    }
}

/// Everything the server printed, shared between the pipe handlers and the test.
private final class Output: Sendable {
    private let buffer = Mutex(Data())

    func append(_ data: Data) { buffer.withLock { $0.append(data) } }

    var text: String { String(decoding: buffer.withLock { $0 }, as: UTF8.self) }

    func listeningURL() -> URL? {
        guard let match = text.firstMatch(of: /account-server listening on (http:\/\/[0-9.:\[\]a-z]+)/) else { return nil }
        return URL(string: String(match.output.1))
    }
}
