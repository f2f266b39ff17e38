import Foundation
import TestSupport
import Testing
import Mailer

@Suite struct FileMailTransportTests {
    let sender = "MBTI Playground <no-reply@mbti.example>"

    /// Every entry in `folder`, hidden ones included.
    func entries(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func writesOneCompleteParsableEmlAndNoTemporaryFile() async throws {
        let folder = temporaryFolder().appendingPathComponent("nested/mail")  // created on init
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent().deletingLastPathComponent()) }
        let date = Date(timeIntervalSince1970: 1_796_014_005.123)
        let transport = try FileMailTransport(directory: folder, sender: sender, now: { date })
        let message = MailMessage(to: "mina@example.com", subject: "[MBTI Playground] 인증 코드", text: "코드\n\n    042917\n")

        try await transport.send(message)

        let names = try entries(folder)
        try #require(names.count == 1, "found \(names)")
        #expect(names[0].wholeMatch(of: /1796014005123-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.eml/) != nil)
        let text = try String(contentsOf: folder.appendingPathComponent(names[0]), encoding: .utf8)
        #expect(hasOnlyCRLF(text))
        let mail = try ParsedMail(text)
        #expect(try mail.value("To") == "mina@example.com")
        #expect(try mail.value("Date") == "Mon, 30 Nov 2026 04:46:45 +0000")
        #expect(try ParsedMail.decoded(mail.value("Subject")) == message.subject)
        let uuid = names[0].dropFirst(14).dropLast(4)
        #expect(try mail.value("Message-ID") == "<\(uuid)@mbti.example>")
        #expect(mail.body == "코드\r\n\r\n    042917\r\n")
        #expect(MailFolder.sixDigitRuns(in: mail.body) == ["042917"])
    }

    @Test func fiftyConcurrentSendsMakeFiftyWholeFiles() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = try FileMailTransport(directory: folder, sender: sender)
        let recipients = (0..<50).map { "user\($0)@example.com" }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for recipient in recipients {
                group.addTask {
                    try await transport.send(MailMessage(to: recipient, subject: "Code", text: "Hi \(recipient)"))
                }
            }
            try await group.waitForAll()
        }

        let names = try entries(folder)
        #expect(names.count == 50)
        #expect(names.allSatisfy { $0.hasSuffix(".eml") && !$0.hasPrefix(".") })
        var seen: Set<String> = []
        for name in names {
            let mail = try ParsedMail(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
            let to = try mail.value("To")
            #expect(mail.body == "Hi \(to)\r\n")
            seen.insert(to)
        }
        #expect(seen == Set(recipients))
    }

    @Test func fileNamesSortByTime() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Across the 12-to-13-digit millisecond boundary, so zero padding is what keeps the order.
        let times = [999_999_999.998, 999_999_999.999, 1_000_000_000.0, 1_796_014_005.0]
        for (index, time) in times.enumerated() {
            let transport = try FileMailTransport(directory: folder, sender: sender, now: {
                Date(timeIntervalSince1970: time)
            })
            try await transport.send(MailMessage(to: "a@b.example", subject: "mail \(index)", text: "x"))
        }
        var subjects: [String] = []
        for name in try entries(folder) {
            subjects.append(try ParsedMail(String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).value("Subject"))
        }
        #expect(subjects == ["mail 0", "mail 1", "mail 2", "mail 3"])
    }

    @Test func refusedMessageLeavesNoFile() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = try FileMailTransport(directory: folder, sender: sender)
        await #expect(throws: MailError.self) {
            try await transport.send(MailMessage(to: "a@b.example\r\nBcc: x@y.example", subject: "x", text: "y"))
        }
        #expect(try entries(folder).isEmpty)
    }

    @Test func missingFolderAtSendTimeIsADeliveryFailure() async throws {
        let folder = temporaryFolder()
        let transport = try FileMailTransport(directory: folder, sender: sender)
        try FileManager.default.removeItem(at: folder)
        await #expect {
            try await transport.send(MailMessage(to: "a@b.example", subject: "x", text: "y"))
        } throws: { error in
            guard case MailError.deliveryFailed(let reason) = error else { return false }
            return reason.contains(folder.path)
        }
    }

    @Test func aFileWhereTheFolderShouldBeIsAConfigurationError() throws {
        let file = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("not a folder".utf8).write(to: file)
        #expect {
            try FileMailTransport(directory: file, sender: sender)
        } throws: { error in
            guard case MailError.invalidConfiguration = error else { return false }
            return true
        }
    }
}
