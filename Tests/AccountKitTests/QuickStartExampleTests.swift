import Foundation
import Synchronization
import TestSupport
import Testing

/// The guide's example (`Examples/QuickStart`, the program `docs/USING-ACCOUNTKIT.md` shows) run
/// whole against the real server, answering its code prompts from the server's mail, as a person
/// reading their mail would: if the guide's code stops working, this fails.
@Suite struct QuickStartExampleTests {
    @Test func theGuidesExampleRunsAgainstTheRealServer() async throws {
        let server = try await ServerProcess.start()
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("quickstart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try ExampleRun(server: server.baseURL, configHome: config)

        var answered = 0
        let deadline = ContinuousClock.now + .seconds(120)
        while run.isRunning, ContinuousClock.now < deadline {
            if let email = run.promptedEmail(after: answered) {
                let code = try #require(try await server.latestCode(to: email), "no code mailed to \(email)")
                run.answer(code)
                answered += 1
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let status = try await run.exitStatus(until: deadline)
        let output = run.output
        #expect(status == 0, "\(output)")
        #expect(answered == 2, "one code for each sign-up flow: \(output)")
        for line in [
            "details-first: verified and signed in as quick_", "profile: MBTI is now INTJ", "sessions: 1, this one ",
            "email-first: signed up and signed in as first_", "refreshed: the access token lives",
            "wrong password: The nickname, email address or password is incorrect.", "still signed in as first_",
            "relaunch: restored as first_", "relaunch: logged out", "offline: Cannot reach the server.", "done",
            "event: signedIn(User(", "event: tokenRefreshed", "event: signedOut(loggedOut)",
        ] {
            #expect(output.contains(line), "missing \"\(line)\" in\n\(output)")
        }
        #expect(!output.contains("@example.com)"), "events print users without their address")

        // The platform store on Linux: a private file in the app's own folder, empty after logout.
        let file = config.appendingPathComponent("com.example.quickstart/credentials.json")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect(entries?.isEmpty == true, "logged out at the end")
        await server.stop()
    }

    @Test func withoutAServerItRefusesToGuess() async throws {
        let run = try ExampleRun(server: nil, configHome: FileManager.default.temporaryDirectory)
        let status = try await run.exitStatus(until: ContinuousClock.now + .seconds(60))
        #expect(status == 2)
        #expect(run.output.contains("usage: QuickStart --server"))
    }
}

/// The built example running as a child process, its output collected and its input a pipe.
private final class ExampleRun: Sendable {
    private let process = Process()
    private let input = Pipe()
    private let collected = Collected()

    init(server: URL?, configHome: URL) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        process.executableURL = root.appendingPathComponent(".build/debug/QuickStart")
        process.arguments = server.map { ["--server", $0.absoluteString] } ?? []
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = configHome.path
        environment["ACCOUNT_SERVER"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = input
        output.fileHandleForReading.readabilityHandler = { [collected] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { collected.append(data) }
        }
        try launch(process)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var isRunning: Bool { process.isRunning }
    var output: String { String(decoding: collected.data, as: UTF8.self) }

    /// The address of the code prompt after the first `count` ones, once it has been printed.
    func promptedEmail(after count: Int) -> String? {
        let prompts = output.matches(of: /code for ([^\s?]+)\?/).map { String($0.output.1) }
        return prompts.count > count ? prompts[count] : nil
    }

    /// Types a line.
    func answer(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// The exit status, waiting until `deadline`; the process is killed when it has not ended.
    func exitStatus(until deadline: ContinuousClock.Instant) async throws -> Int32 {
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning {
            process.terminate()
            throw CancellationError()
        }
        // The last output may still be in the pipe.
        try await Task.sleep(for: .milliseconds(100))
        return process.terminationStatus
    }
}

/// Output gathered by the pipe's handler and read by the test.
private final class Collected: Sendable {
    private let buffer = Mutex(Data())
    func append(_ data: Data) { buffer.withLock { $0.append(data) } }
    var data: Data { buffer.withLock { $0 } }
}
