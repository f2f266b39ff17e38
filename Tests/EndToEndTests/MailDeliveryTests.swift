import AccountAPI
import Foundation
import TestSupport
import Testing

/// Mail through a real SMTP server on loopback that refuses at first: the outbox keeps the
/// message and retries with back-off until it goes out, once.
@Suite struct MailDeliveryTests {
    @Test func aRefusedMessageIsRetriedUntilItGoesOutOnce() async throws {
        let folder = try TemporaryFolder()
        let sink = try await SmtpSink(refuse: 2)
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock, ["--mail", sink.url().absoluteString])
        let account = TestAccount("smtp")
        #expect(try await server.client.send("POST", "/auth/signup", model: account.signUpRequest).status == 202)

        // Two refusals, each followed by a back-off that the moved clock skips.
        var delivered: [String] = []
        for step in 1...40 where delivered.isEmpty {
            clock.set(ahead: TimeInterval(step * 30))
            try await Task.sleep(for: .milliseconds(500))
            delivered = sink.messages()
        }
        #expect(delivered.count == 1, "\(server.logs)")
        let message = try #require(delivered.first)
        #expect(message.contains("To: \(account.email)"))
        #expect(message.contains("Content-Type: multipart/alternative; boundary="))
        #expect(message.contains("Content-Type: text/plain; charset=utf-8") && message.contains("Content-Type: text/html; charset=utf-8"))
        #expect(message.contains("Date: ") && message.contains("Message-ID: <"))
        #expect(MailFolder.code(in: message) != nil)
        #expect(server.logs.contains("mail_delivery_failed"), "the refusals were logged")
        try await Task.sleep(for: .seconds(1))
        #expect(sink.messages().count == 1, "sent once")
        await server.stop()
    }
}
