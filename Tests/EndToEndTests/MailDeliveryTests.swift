import AccountAPI
import Foundation
import TestSupport
import Testing

/// Mail through a real SMTP server on loopback that refuses at first: the outbox keeps the
/// message and retries with back-off until it goes out, once.
@Suite struct MailDeliveryTests {
    static let sink = PackageFiles.url("scripts/smtp-sink.py")

    @Test func aRefusedMessageIsRetriedUntilItGoesOutOnce() async throws {
        let folder = try TemporaryFolder()
        let received = folder.url.appendingPathComponent("smtp")
        let sink = try ChildProcess(
            arguments: [Self.sink.path, "--dir", received.path, "--port", "0", "--refuse", "2"],
            binary: URL(fileURLWithPath: "/usr/bin/python3"))
        defer { sink.send(SIGKILL) }
        var port: String?
        for _ in 0..<200 where port == nil {
            port = sink.standardOutput.text.firstMatch(of: /PORT ([0-9]+)/).map { String($0.output.1) }
            if port == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let smtpPort = try #require(port, "the SMTP sink did not start: \(sink.transcript)")

        let clock = folder.url.appendingPathComponent("clock")
        try "0".write(to: clock, atomically: true, encoding: .utf8)
        let server = try await RunningServer.start(in: folder, ["--mail", "smtp://127.0.0.1:\(smtpPort)", "--clock-file", clock.path])
        let account = TestAccount("smtp")
        #expect(try await server.client.send("POST", "/auth/signup", model: account.signUpRequest).status == 202)

        // Two refusals, each followed by a back-off that the moved clock skips.
        var delivered: [String] = []
        for step in 1...40 where delivered.isEmpty {
            try String(step * 30).write(to: clock, atomically: true, encoding: .utf8)
            try await Task.sleep(for: .milliseconds(500))
            delivered = ((try? FileManager.default.contentsOfDirectory(atPath: received.path)) ?? []).filter { $0.hasSuffix(".eml") }
        }
        #expect(delivered.count == 1, "\(server.logs)")
        let message = try String(contentsOf: received.appendingPathComponent(try #require(delivered.first)), encoding: .utf8)
        #expect(message.contains("To: \(account.email)"))
        #expect(message.contains("Content-Type: multipart/alternative; boundary="))
        #expect(message.contains("Content-Type: text/plain; charset=utf-8") && message.contains("Content-Type: text/html; charset=utf-8"))
        #expect(message.contains("Date: ") && message.contains("Message-ID: <"))
        #expect(MailFolder.sixDigits(in: MailFolder.body(of: message)) != nil)
        #expect(server.logs.contains("mail_delivery_failed"), "the refusals were logged")
        try await Task.sleep(for: .seconds(1))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: received.path)) ?? []).filter { $0.hasSuffix(".eml") }.count == 1, "sent once")
        await server.stop()
    }
}
