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

    /// Nicknames a stranger could pick to hide the code or slip a link or a second code into the mail.
    static let nicknames = ["다혜", "mina.123456", "１２３４５６가", "evil.example", "a.1234567890", "٠١٢٣٤٥٦.x", "שלום"]

    @Test(arguments: Language.allCases)
    func aPendingSignUpsCodeNamesItsNicknameAndStaysTheOnlySixDigitNumber(language: Language) throws {
        for nickname in Self.nicknames {
            let mail = MailTemplates.code("042917", purpose: .verify, language: language, lifetimeMinutes: 10, to: "a@b.example", signingUpAs: nickname)
            let shown = nickname.unicodeScalars.filter { $0 != "\u{200B}" }
            #expect(mail.text.contains("\u{2068}"), "between bidi isolates")
            let visible = String(String.UnicodeScalarView(mail.text.unicodeScalars.filter { $0 != "\u{200B}" }))
            #expect(visible.contains("“\u{2068}\(String(String.UnicodeScalarView(shown)))\u{2069}”"), "\(nickname): \(mail.text)")
            #expect(MailFolder.sixDigitRuns(in: mail.text) == ["042917"], "\(nickname): \(mail.text)")
            #expect(mail.text.matches(of: /[0-9]+/).filter { $0.output.count >= 6 }.map(\.output) == ["042917"])
            #expect(!mail.text.contains("evil.example"), "no link a mail program would make")
            let rendered = try MailRenderer.render(mail, from: "MBTI Playground <no-reply@mbti.example>", date: Date(), messageID: "m")
            let html = String(rendered[rendered.range(of: "text/html")!.lowerBound...])
            #expect(html.components(separatedBy: "<strong").count == 2, "only the code is boxed: \(nickname)")
        }
        let english = MailTemplates.code("042917", purpose: .verify, language: .en, lifetimeMinutes: 10, to: "a@b.example", signingUpAs: "다혜")
        #expect(english.text.contains("You are signing up for MBTI Playground as “\u{2068}다혜\u{2069}”."))
        #expect(english.text.contains("If “\u{2068}다혜\u{2069}” is not the nickname you chose, someone else is signing up with your email address: do not enter this code"))
        let korean = MailTemplates.code("042917", purpose: .verify, language: .ko, lifetimeMinutes: 10, to: "a@b.example", signingUpAs: "다혜")
        #expect(korean.text.contains("“\u{2068}다혜\u{2069}” 닉네임으로 가입하고 있어요") && korean.text.contains("이 코드는 입력하지 말고"))
        // Without a sign-up (an account's address, an email-first code) nothing is named.
        let plain = MailTemplates.code("042917", purpose: .verify, language: .en, lifetimeMinutes: 10, to: "a@b.example")
        #expect(!plain.text.contains("signing up") && !plain.text.contains("\u{2068}"))
    }
}
