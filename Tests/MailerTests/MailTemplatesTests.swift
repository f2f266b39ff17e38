import AccountAPI
import Foundation
import TestSupport
import Testing
import Mailer

@Suite struct MailTemplatesTests {
    static let codes = ["000123", "123456", "999999", "100000", "000000"]

    @Test(arguments: Language.allCases, CodePurpose.allCases)
    func codeMailHoldsTheCodeAsItsOnlySixDigitNumber(language: Language, purpose: CodePurpose) {
        for code in Self.codes {
            let mail = MailTemplates.code(code, purpose: purpose, language: language, lifetimeMinutes: 10,
                                          to: "user123456@example.com")
            #expect(MailFolder.sixDigitRuns(in: mail.text) == [code])
            #expect(MailFolder.sixDigitRuns(in: mail.subject).isEmpty)
            #expect(mail.text.components(separatedBy: code).count == 2, "the code appears exactly once")
            #expect(mail.to == "user123456@example.com")
            #expect(mail.subject.hasPrefix("[MBTI Playground] "))
            #expect(mail.text.contains("10"), "the lifetime is stated")
        }
    }

    @Test(arguments: Language.allCases)
    func passwordResetMailHoldsTheCodeAsItsOnlySixDigitNumber(language: Language) {
        for code in Self.codes {
            let mail = MailTemplates.passwordResetCode(code, language: language, lifetimeMinutes: 10, to: "a@b.example")
            #expect(MailFolder.sixDigitRuns(in: mail.text) == [code])
            #expect(mail.subject.hasPrefix("[MBTI Playground] "))
        }
    }

    @Test(arguments: Language.allCases)
    func alreadyRegisteredMailHasNoCode(language: Language) {
        let mail = MailTemplates.alreadyRegistered(language: language, to: "taken@example.com")
        #expect(MailFolder.sixDigitRuns(in: mail.subject + "\n" + mail.text).isEmpty)
        #expect(mail.subject.hasPrefix("[MBTI Playground] "))
        #expect(mail.to == "taken@example.com")
    }

    @Test func textsAreInTheRequestedLanguage() {
        let korean = MailTemplates.code("123456", purpose: .signup, language: .ko, lifetimeMinutes: 10, to: "a@b.example")
        let english = MailTemplates.code("123456", purpose: .signup, language: .en, lifetimeMinutes: 10, to: "a@b.example")
        #expect(korean.subject.contains("인증 코드"))
        #expect(korean.text.contains("10분"))
        #expect(english.subject.allSatisfy { $0.isASCII })
        #expect(english.text.contains("10 minutes"))
        let alreadyKorean = MailTemplates.alreadyRegistered(language: .ko, to: "a@b.example")
        let alreadyEnglish = MailTemplates.alreadyRegistered(language: .en, to: "a@b.example")
        #expect(alreadyKorean.text.contains("이미"))
        #expect(alreadyEnglish.text.contains("already have an account") || alreadyEnglish.text.contains("already has an account"))
    }

    @Test func purposesGetDifferentWording() {
        let signup = MailTemplates.code("123456", purpose: .signup, language: .en, lifetimeMinutes: 10, to: "a@b.example")
        let verify = MailTemplates.code("123456", purpose: .verify, language: .en, lifetimeMinutes: 10, to: "a@b.example")
        #expect(signup.subject != verify.subject)
        #expect(signup.text != verify.text)
    }

    @Test func oneMinuteIsSingular() {
        let mail = MailTemplates.code("123456", purpose: .verify, language: .en, lifetimeMinutes: 1, to: "a@b.example")
        #expect(mail.text.contains("1 minute."))
    }

    @Test(arguments: Language.allCases)
    func everyTemplateRendersWithShortHeaderLines(language: Language) throws {
        let mails = CodePurpose.allCases.map {
            MailTemplates.code("123456", purpose: $0, language: language, lifetimeMinutes: 10, to: "a@b.example")
        } + [
            MailTemplates.passwordResetCode("123456", language: language, lifetimeMinutes: 10, to: "a@b.example"),
            MailTemplates.alreadyRegistered(language: language, to: "a@b.example"),
        ]
        for message in mails {
            let rendered = try MailRenderer.render(message, from: "MBTI Playground <no-reply@mbti.example>",
                                                   date: Date(), messageID: "m")
            let mail = try ParsedMail(rendered)
            #expect(mail.headerLines.allSatisfy { $0.utf8.count <= 78 })
            #expect(try ParsedMail.decoded(mail.value("Subject")) == message.subject)
            #expect(mail.body == message.text.replacingOccurrences(of: "\n", with: "\r\n"))
        }
    }
}
