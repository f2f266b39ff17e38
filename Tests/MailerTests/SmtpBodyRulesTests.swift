import AccountAPI
import Foundation
import Testing
import Mailer

/// What sending the 8bit body over SMTP relies on, checked for every template.
@Suite struct SmtpBodyRulesTests {
    static var allTemplates: [MailMessage] {
        Language.allCases.flatMap { language in
            CodePurpose.allCases.map {
                MailTemplates.code("042917", purpose: $0, language: language, lifetimeMinutes: 10, to: "a@b.example")
            } + [
                MailTemplates.passwordResetCode("042917", language: language, lifetimeMinutes: 10, to: "a@b.example"),
                MailTemplates.alreadyRegistered(language: language, to: "a@b.example"),
            ]
        }
    }

    @Test func everyRenderedLineFitsSMTPsLimitAndTheBodyIsValidUTF8() throws {
        for message in Self.allTemplates {
            let rendered = try MailRenderer.render(message, from: "MBTI Playground <no-reply@mbti.example>",
                                                   date: Date(), messageID: "m")
            // RFC 5321 §4.5.3.1.6: at most 998 octets before each CRLF, even with 8BITMIME.
            for line in rendered.components(separatedBy: "\r\n") {
                #expect(line.utf8.count <= 998)
            }
            #expect(hasOnlyCRLF(rendered))
            #expect(!rendered.unicodeScalars.contains("\u{0}"))
        }
    }
}
