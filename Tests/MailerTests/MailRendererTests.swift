import Foundation
import Testing
@testable import Mailer

@Suite struct MailRendererTests {
    let sender = "MBTI Playground <no-reply@mbti.example>"
    let date = Date(timeIntervalSince1970: 1_796_014_005)  // Mon, 30 Nov 2026 04:46:45 UTC

    @Test func rendersTheFullHeaderSetAndBody() throws {
        let message = MailMessage(to: "mina@example.com", subject: "Hello there", text: "Line one\nLine two")
        let rendered = try MailRenderer.render(message, from: sender, date: date, messageID: "abc-123")
        let boundary = MailRenderer.boundary(for: "abc-123")
        #expect(!boundary.contains { $0.isNumber })
        #expect(rendered == """
            From: MBTI Playground <no-reply@mbti.example>\r
            To: mina@example.com\r
            Subject: Hello there\r
            Date: Mon, 30 Nov 2026 04:46:45 +0000\r
            Message-ID: <abc-123@mbti.example>\r
            MIME-Version: 1.0\r
            Content-Type: multipart/alternative; boundary="\(boundary)"\r
            \r
            --\(boundary)\r
            Content-Type: text/plain; charset=utf-8\r
            Content-Transfer-Encoding: 8bit\r
            \r
            Line one\r
            Line two\r
            --\(boundary)\r
            Content-Type: text/html; charset=utf-8\r
            Content-Transfer-Encoding: 8bit\r
            \r
            \(MailRenderer.crlfBody(MailHTML.render("Line one\nLine two")))--\(boundary)--\r

            """)
    }

    @Test func theHTMLAlternativeEscapesAndBoxesTheCode() throws {
        let html = MailHTML.render("Your code <b>:\n\n    042917\n\nThanks & bye")
        #expect(html.contains("Your code &lt;b&gt;:"))
        #expect(html.contains("Thanks &amp; bye"))
        #expect(html.contains("<span>0</span><span>4</span><span>2</span><span>9</span><span>1</span><span>7</span>"))
        #expect(html.firstMatch(of: /[0-9]{6}/) == nil, "no six-digit run in the HTML part")
    }

    @Test func normalizesEveryBodyLineEndToCRLF() throws {
        let message = MailMessage(to: "a@b.example", subject: "x", text: "unix\nwindows\r\nold mac\rend\n\n")
        let rendered = try MailRenderer.render(message, from: sender, date: date, messageID: "m")
        #expect(hasOnlyCRLF(rendered))
        #expect(try ParsedMail(rendered).body == "unix\r\nwindows\r\nold mac\r\nend\r\n\r\n")
    }

    @Test(arguments: [
        "[MBTI Playground] 인증 코드",
        "[MBTI Playground] 회원가입을 환영해요! 아래 코드를 입력하면 가입이 완료돼요. 이 코드는 10분 동안 유효해요.",
        "Résumé 🎉👩‍👩‍👧‍👦 emoji family and a long tail of words to force several encoded words",
        "A plain ASCII subject that is long enough that it has to be folded over more than one line",
        "Spaces  doubled and a word-that-is-far-too-long-to-fold-anywhere-because-it-never-has-any-spaces",
        "  leading and trailing  ",
        "Looks encoded =?UTF-8?B?SGk=?= but is not",
    ])
    func subjectsSurviveEncodingAndFoldingWithShortLines(subject: String) throws {
        let message = MailMessage(to: "mina@example.com", subject: subject, text: "hi")
        let rendered = try MailRenderer.render(message, from: sender, date: date, messageID: "m")
        let mail = try ParsedMail(rendered)
        for line in mail.headerLines {
            #expect(line.utf8.count <= 78, "header line too long: \(line)")
            #expect(line.allSatisfy { $0.isASCII }, "raw non-ASCII in header: \(line)")
        }
        #expect(try ParsedMail.decoded(mail.value("Subject")) == subject)
    }

    @Test func koreanSubjectIsBase64EncodedWords() throws {
        let message = MailMessage(to: "mina@example.com", subject: "[MBTI Playground] 인증 코드", text: "hi")
        let rendered = try MailRenderer.render(message, from: sender, date: date, messageID: "m")
        let subject = try ParsedMail(rendered).value("Subject")
        #expect(subject.hasPrefix("=?UTF-8?B?") && subject.hasSuffix("?="))
    }

    @Test func nonASCIIDisplayNameIsEncodedAndAddressKept() throws {
        let message = MailMessage(to: "mina@example.com", subject: "x", text: "hi")
        let rendered = try MailRenderer.render(message, from: "엠비티아이 놀이터 <hello@mbti.example>", date: date, messageID: "m")
        let from = try ParsedMail(rendered).value("From")
        #expect(from.hasSuffix(" <hello@mbti.example>"))
        #expect(try ParsedMail.decoded(from) == "엠비티아이 놀이터 <hello@mbti.example>")
        #expect(rendered.contains("Message-ID: <m@mbti.example>\r\n"))
    }

    @Test(arguments: [
        (1_796_014_005.0, "Mon, 30 Nov 2026 04:46:45 +0000"),
        (1_772_323_207.9, "Sun, 01 Mar 2026 00:00:07 +0000"),
        (0.0, "Thu, 01 Jan 1970 00:00:00 +0000"),
    ])
    func formatsTheDateInRFC5322(seconds: Double, expected: String) throws {
        let message = MailMessage(to: "a@b.example", subject: "x", text: "y")
        let rendered = try MailRenderer.render(
            message, from: sender, date: Date(timeIntervalSince1970: seconds), messageID: "m")
        #expect(try ParsedMail(rendered).value("Date") == expected)
    }
}
