import Foundation
import TestSupport
import Testing
import Mailer

/// `--mail smtp://…` and `smtps://…`: parsing, refusals, and credentials from the environment.
@Suite struct SmtpConfigurationTests {
    let sender = "MBTI Playground <no-reply@mbti.example>"

    @Test(arguments: ["smtp://h:25", "smtps://u:p@h:465", "SMTP://mail.example", "smtp://[::1]:2525",
                      "smtp://user%40corp:p%3Ass@mail.example:587/"])
    func parsesSMTPURLs(option: String) throws {
        #expect(try MailConfiguration.destination(for: option) == .smtp(URL(string: option)!))
    }

    @Test(arguments: [
        ("smtp://h:25", "smtp://h:25"),
        ("smtps://u:p@h:465", "smtps://h:465"),
        ("SMTP://Mail.Example", "smtp://mail.example"),
        ("smtp://[::1]:2525", "smtp://[::1]:2525"),
    ])
    func buildsAnSMTPTransportForTheServerWithoutCredentials(option: String, server: String) throws {
        let transport = try MailConfiguration.transport(for: option, sender: sender, environment: [:])
        let smtp = try #require(transport as? SMTPMailTransport)
        #expect(smtp.server.lowercased() == server)
        #expect(!String(describing: smtp).contains("u:p"))
    }

    @Test(arguments: ["smtp://", "smtp://:25", "smtps://@", "smtp://h:0", "smtp://h:99999", "smtp://h:port",
                      "smtp://h/folder", "smtp://h?x=1", "smtp://h#f", "smtp://exa mple:25"])
    func refusesBogusSMTPURLs(option: String) {
        #expect {
            try MailConfiguration.transport(for: option, sender: sender, environment: [:])
        } throws: { error in
            guard case MailError.invalidConfiguration(let text) = error else { return false }
            return text.contains("smtp://")
        }
    }

    @Test func aBadURLNeverRepeatsItsPassword() {
        for option in ["smtp://u:Secr3tPw@:25", "smtp://u:Secr3tPw@h:99999", "smtpx://u:Secr3tPw@h:25"] {
            #expect {
                try MailConfiguration.transport(for: option, sender: sender, environment: [:])
            } throws: { error in
                guard case MailError.invalidConfiguration(let text) = error else { return false }
                return !text.contains("Secr3tPw")
            }
        }
    }

    @Test func credentialsComeFromTheEnvironmentWhenTheURLHasNone() async throws {
        let sink = try await SmtpSink(auth: "env-user:env password")
        let transport = try MailConfiguration.transport(
            for: "smtp://127.0.0.1:\(sink.port)", sender: sender,
            environment: ["ACCOUNT_MAIL_USER": "env-user", "ACCOUNT_MAIL_PASSWORD": "env password"])

        try await transport.send(MailMessage(to: "a@b.example", subject: "env", text: "hello"))

        #expect(try sink.received().count == 1)
    }

    @Test func withoutCredentialsAnAuthServerRefuses() async throws {
        let sink = try await SmtpSink(auth: "env-user:env password")
        let transport = try MailConfiguration.transport(
            for: "smtp://127.0.0.1:\(sink.port)", sender: sender, environment: [:])

        await #expect(throws: MailError.self) {
            try await transport.send(MailMessage(to: "a@b.example", subject: "env", text: "hello"))
        }
        #expect(try sink.received().isEmpty)
    }
}
