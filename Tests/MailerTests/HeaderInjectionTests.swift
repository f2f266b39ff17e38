import Foundation
import Testing
import Mailer

@Suite struct HeaderInjectionTests {
    static let hostile = [
        "x\r\nBcc: victim@example.com", "x\nBcc: victim@example.com", "x\rBcc: victim@example.com",
        "x\tTab", "x\u{0}nul", "x\u{7F}del", "x\u{85}next-line", "x\u{2028}line-separator",
    ]
    let date = Date(timeIntervalSince1970: 0)

    @Test(arguments: hostile)
    func refusesControlCharactersInTheSubject(value: String) {
        let message = MailMessage(to: "mina@example.com", subject: value, text: "hi")
        #expect(throws: MailError.invalidHeader("Subject contains a line break or control character")) {
            try MailRenderer.render(message, from: "a@b.example", date: date, messageID: "m")
        }
    }

    @Test(arguments: hostile)
    func refusesControlCharactersInTheRecipient(value: String) {
        let message = MailMessage(to: "mina@example.com" + value, subject: "Hi", text: "hi")
        #expect(throws: MailError.invalidHeader("To contains a line break or control character")) {
            try MailRenderer.render(message, from: "a@b.example", date: date, messageID: "m")
        }
    }

    @Test(arguments: hostile)
    func refusesControlCharactersInTheSender(value: String) {
        let message = MailMessage(to: "mina@example.com", subject: "Hi", text: "hi")
        #expect(throws: MailError.self) {
            try MailRenderer.render(message, from: "a@b.example" + value, date: date, messageID: "m")
        }
    }

    @Test(arguments: ["a@x.example, b@y.example", "a@x.example b@y.example", "no-at-sign", "@x.example",
                      "a@", "a@@x.example", "<a@x.example>>", "Name <a@x.example", "", "a\"@x.example"])
    func refusesRecipientsThatAreNotOnePlainAddress(to: String) {
        let message = MailMessage(to: to, subject: "Hi", text: "hi")
        #expect(throws: MailError.self) {
            try MailRenderer.render(message, from: "a@b.example", date: date, messageID: "m")
        }
    }

    @Test(arguments: ["", "a>\r\nBcc: x", "a@b", "a b"])
    func refusesUnsafeMessageIDs(id: String) {
        let message = MailMessage(to: "mina@example.com", subject: "Hi", text: "hi")
        #expect(throws: MailError.self) {
            try MailRenderer.render(message, from: "a@b.example", date: date, messageID: id)
        }
    }
}
