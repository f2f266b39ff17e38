import Foundation
import Testing
import TestSupport
@testable import Mailer

/// SMTPMailTransport's bound: a few conversations at once, a few more messages waiting, and a
/// clear refusal past that, against a real socket that takes connections and never answers.
@Suite struct SmtpBoundTests {
    let message = MailMessage(to: "a@b.example", subject: "bound", text: "code 123456")

    @Test("past the bound a send is refused at once with busy, connecting to nothing; what was taken is answered")
    func aSendPastTheBoundIsRefusedAtOnce() async throws {
        let server = try SilentServer()
        let transport = try SMTPMailTransport(
            url: server.url, sender: "no-reply@mbti.example", username: nil, password: nil, timeout: 30,
            now: { Date() }, conversations: 1, waitingLimit: 1)
        let message = message

        let talking = Task { try await transport.send(message) }
        try await eventually("the first send is in its conversation") { server.accepted == 1 }
        let waiting = Task { try await transport.send(message) }
        try await eventually("the second send waits") { transport.workers.queueLength == 1 }

        await #expect {
            try await transport.send(message)
        } throws: { error in
            guard case MailError.busy(let reason) = error else { return false }
            return reason.contains(server.url.host ?? "?") && reason.contains("1 messages already wait")
        }
        // Refused without waiting for the conversation ahead of it, which still hangs.
        #expect(server.accepted == 1)
        #expect(transport.workers.queueLength == 1)

        // The server hangs up: the first send fails, then the waiting one runs and fails too
        // (nothing listens any more). Each caller hears about its own message.
        server.stop()
        for task in [talking, waiting] {
            await #expect {
                try await task.value
            } throws: { error in
                if case MailError.deliveryFailed = error { true } else { false }
            }
        }
        #expect(transport.workers.queueLength == 0)
    }

    @Test func theBoundOfAServerTransport() throws {
        let transport = try SMTPMailTransport(url: URL(string: "smtp://127.0.0.1:2525")!, sender: "no-reply@mbti.example")
        #expect(transport.workers.threadCount == SMTPMailTransport.conversations)
        #expect(transport.workers.queueLimit == SMTPMailTransport.waitingLimit)
    }
}
