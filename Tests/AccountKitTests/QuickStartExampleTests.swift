import Foundation
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
                let code = try await server.mail.code(to: email)
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
private struct ExampleRun {
    let child: ChildProcess

    init(server: URL?, configHome: URL) throws {
        child = try ChildProcess(
            arguments: server.map { ["--server", $0.absoluteString] } ?? [], binary: try Binaries.quickStart(),
            environment: ["XDG_CONFIG_HOME": configHome.path], input: true)
    }

    var isRunning: Bool { !child.hasExited }
    var output: String { child.standardOutput.text + child.standardError.text }

    /// The address of the code prompt after the first `count` ones, once it has been printed.
    func promptedEmail(after count: Int) -> String? {
        let prompts = output.matches(of: /code for ([^\s?]+)\?/).map { String($0.output.1) }
        return prompts.count > count ? prompts[count] : nil
    }

    /// Types a line.
    func answer(_ line: String) { child.type(line) }

    /// The exit status, waiting until `deadline`; the process is killed when it has not ended.
    func exitStatus(until deadline: ContinuousClock.Instant) async throws -> TestSupport.ExitStatus {
        let remaining = ContinuousClock.now.duration(to: deadline)
        let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18
        guard let status = await child.exitStatus(timeout: max(seconds, 0)) else {
            child.send(SIGKILL)
            throw TestFailure("QuickStart still running:\n\(output)")
        }
        // The last output may still be in the pipes.
        for _ in 0..<100 where !(child.standardOutput.isFinished && child.standardError.isFinished) {
            try await Task.sleep(for: .milliseconds(10))
        }
        return status
    }
}
