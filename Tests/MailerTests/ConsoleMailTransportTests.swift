import Foundation
import TestSupport
import Testing
import Mailer

@Suite struct ConsoleMailTransportTests {
    let sender = "MBTI Playground <no-reply@mbti.example>"
    let date = Date(timeIntervalSince1970: 1_796_014_005)

    @Test func transcriptShowsTheReadableSubjectAndTheRenderedMessage() throws {
        let message = MailMessage(to: "mina@example.com", subject: "[MBTI Playground] 인증 코드", text: "코드:\n\n    042917\n")
        let transcript = try ConsoleMailTransport.transcript(of: message, from: sender, date: date, messageID: "m")
        let rendered = try MailRenderer.render(message, from: sender, date: date, messageID: "m")
        let head = rendered.components(separatedBy: "\r\n\r\n")[0].replacingOccurrences(of: "\r\n", with: "\n")
        #expect(transcript == "===== mail to mina@example.com: [MBTI Playground] 인증 코드 =====\n"
            + head + "\n\n코드:\n\n    042917\n===== end of mail =====\n")
        #expect(!transcript.unicodeScalars.contains("\r"))
        #expect(MailFolder.sixDigitRuns(in: transcript) == ["042917"])
    }

    @Test func sendWritesOneTranscriptPerMessage() async throws {
        let printed = Collected<String>()
        let transport = ConsoleMailTransport(sender: sender, now: { [date] in date }, output: { printed.append($0) })
        try await transport.send(MailMessage(to: "a@b.example", subject: "One", text: "first 111111"))
        try await transport.send(MailMessage(to: "c@d.example", subject: "Two", text: "second 222222"))
        let all = printed.all
        try #require(all.count == 2)
        #expect(all[0].hasPrefix("===== mail to a@b.example: One =====\n"))
        #expect(all[0].contains("Date: Mon, 30 Nov 2026 04:46:45 +0000\n"))
        #expect(all[0].contains("\n\nfirst 111111\n===== end of mail =====\n"))
        #expect(all[1].contains("\n\nsecond 222222\n"))
    }

    @Test func sendRefusesHeaderInjectionAndPrintsNothing() async {
        let printed = Collected<String>()
        let transport = ConsoleMailTransport(sender: sender, now: { Date() }, output: { printed.append($0) })
        await #expect(throws: MailError.self) {
            try await transport.send(MailMessage(to: "a@b.example", subject: "Hi\r\nBcc: x@y.example", text: "t"))
        }
        #expect(printed.all.isEmpty)
    }
}
