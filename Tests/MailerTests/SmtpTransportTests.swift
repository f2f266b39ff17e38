import AccountAPI
import Foundation
import TestSupport
import Testing
@testable import Mailer

/// SMTPMailTransport against a real SMTP server (aiosmtpd) on loopback.
@Suite struct SmtpTransportTests {
    let sender = "MBTI Playground <no-reply@mbti.example>"

    @Test func aKoreanCodeMailArrivesWholeWithItsEnvelope() async throws {
        let sink = try await SmtpSink()
        let date = Date(timeIntervalSince1970: 1_796_014_005)
        let transport = try SMTPMailTransport(
            url: sink.url(), sender: sender, username: nil, password: nil, timeout: 10, now: { date })
        let message = MailTemplates.code("042917", purpose: .signup, language: .ko, lifetimeMinutes: 10,
                                         to: "mina@example.com")

        try await transport.send(message)

        let received = try sink.received()
        try #require(received.count == 1)
        let (text, envelope) = received[0]
        #expect(envelope.mail_from == "no-reply@mbti.example")
        #expect(envelope.rcpt_tos == ["mina@example.com"])
        #expect(hasOnlyCRLF(text))
        let mail = try ParsedMail(text)
        #expect(try mail.value("From") == "MBTI Playground <no-reply@mbti.example>")
        #expect(try mail.value("To") == "mina@example.com")
        #expect(try ParsedMail.decoded(mail.value("Subject")) == message.subject)
        #expect(try mail.value("Date") == "Mon, 30 Nov 2026 04:46:45 +0000")
        #expect(try mail.value("Message-ID").wholeMatch(of: /<[0-9a-f-]{36}@mbti\.example>/) != nil)
        #expect(MailFolder.codes(in: text) == ["042917"], "the body holds the code once (the headers hold a random Message-ID)")
        #expect(text == (try MailRenderer.render(
            message, from: sender, date: date, messageID: String(mail.value("Message-ID").dropFirst().prefix(36)))))
    }

    @Test func linesStartingWithADotSurviveTheDataPhase() async throws {
        let sink = try await SmtpSink()
        let transport = try SMTPMailTransport(url: sink.url(), sender: sender)
        let text = ".hidden\n.\n..two\nend\n"

        try await transport.send(MailMessage(to: "a@b.example", subject: "dots", text: text))

        let received = try sink.received()
        try #require(received.count == 1)
        #expect(try ParsedMail(received[0].mail).body == ".hidden\r\n.\r\n..two\r\nend\r\n")
    }

    @Test func authWithPercentEncodedCredentialsInTheURL() async throws {
        let sink = try await SmtpSink(auth: "mbti:s3cr:t@pw")
        let transport = try SMTPMailTransport(url: sink.url(userInfo: "mbti:s3cr%3At%40pw"), sender: sender)

        try await transport.send(MailMessage(to: "a@b.example", subject: "auth", text: "hello"))

        #expect(try sink.received().count == 1)
        #expect(!String(describing: transport).contains("s3cr"))
    }

    @Test func authWithExplicitCredentials() async throws {
        let sink = try await SmtpSink(auth: "mbti:open sesame")
        let transport = try SMTPMailTransport(
            url: sink.url(), sender: sender, username: "mbti", password: "open sesame")

        try await transport.send(MailMessage(to: "a@b.example", subject: "auth", text: "hello"))

        #expect(try sink.received().count == 1)
    }

    @Test func aWrongPasswordFailsWithoutRevealingIt() async throws {
        let sink = try await SmtpSink(auth: "mbti:right-password")
        let transport = try SMTPMailTransport(
            url: sink.url(), sender: sender, username: "mbti", password: "wrong-Pa55word")

        await #expect {
            try await transport.send(MailMessage(to: "a@b.example", subject: "auth", text: "hello"))
        } throws: { error in
            guard case MailError.deliveryFailed(let reason) = error else { return false }
            return !reason.contains("wrong-Pa55word") && reason.contains("127.0.0.1")
        }
        #expect(try sink.received().isEmpty)
    }

    @Test func noCredentialsWhereAuthIsRequiredFails() async throws {
        let sink = try await SmtpSink(auth: "mbti:pw")
        let transport = try SMTPMailTransport(url: sink.url(), sender: sender)

        await #expect(throws: MailError.self) {
            try await transport.send(MailMessage(to: "a@b.example", subject: "x", text: "y"))
        }
        #expect(try sink.received().isEmpty)
    }

    @Test func aRefusingServerFailsAndTheNextSendSucceedsOnceItRecovers() async throws {
        let sink = try await SmtpSink(refuse: 1)
        let transport = try SMTPMailTransport(url: sink.url(), sender: sender)
        let message = MailMessage(to: "a@b.example", subject: "retry", text: "code 123456")

        await #expect {
            try await transport.send(message)
        } throws: { error in
            guard case MailError.deliveryFailed(let reason) = error else { return false }
            return reason.contains("451")
        }
        #expect(try sink.received().isEmpty)

        try await transport.send(message)
        #expect(try sink.received().count == 1)
    }

    @Test func aClosedPortIsADeliveryFailure() async throws {
        let port = try closedLoopbackPort()
        let transport = try SMTPMailTransport(
            url: URL(string: "smtp://127.0.0.1:\(port)")!, sender: sender, timeout: 5)

        await #expect {
            try await transport.send(MailMessage(to: "a@b.example", subject: "x", text: "y"))
        } throws: { error in
            guard case MailError.deliveryFailed(let reason) = error else { return false }
            return reason.contains("127.0.0.1:\(port)")
        }
    }

    @Test(arguments: HeaderInjectionTests.hostile)
    func headerInjectionIsRefusedBeforeAnyNetworkTraffic(value: String) async throws {
        let sink = try await SmtpSink()
        let transport = try SMTPMailTransport(url: sink.url(), sender: sender)

        await #expect(throws: MailError.invalidHeader("Subject contains a line break or control character")) {
            try await transport.send(MailMessage(to: "a@b.example", subject: "Hi" + value, text: "y"))
        }
        await #expect(throws: MailError.invalidHeader("To contains a line break or control character")) {
            try await transport.send(MailMessage(to: "a@b.example" + value, subject: "Hi", text: "y"))
        }
        #expect(try sink.received().isEmpty)
    }

    @Test func tenConcurrentSendsAllArrive() async throws {
        let sink = try await SmtpSink()
        let transport = try SMTPMailTransport(url: sink.url(), sender: sender)
        let recipients = (0..<10).map { "user\($0)@example.com" }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for recipient in recipients {
                group.addTask {
                    try await transport.send(MailMessage(to: recipient, subject: "Hi", text: "for \(recipient)"))
                }
            }
            try await group.waitForAll()
        }

        let received = try sink.received()
        #expect(received.count == 10)
        var seen: Set<String> = []
        for (text, envelope) in received {
            let to = try ParsedMail(text).value("To")
            #expect(envelope.rcpt_tos == [to])
            #expect(try ParsedMail(text).body == "for \(to)\r\n")
            seen.insert(to)
        }
        #expect(seen == Set(recipients))
    }
}
