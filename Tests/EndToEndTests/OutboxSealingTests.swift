import AccountAPI
import Foundation
import TestSupport
import Testing

/// Waiting mail under `--secret-key-file`, against the real binary: SMTP down, the database read
/// as a copy would be (`sqlite3` and its bytes), and a sealed message copied to another row.
@Suite("Waiting mail sealed")
struct OutboxSealingEndToEndTests {
    @Test func waitingMailIsSealedAndACopiedMessageIsNeverSent() async throws {
        let folder = try TemporaryFolder()
        let key = try await SecretKeyFileEndToEndTests.generateKey(in: folder)
        let clock = try TestClock(in: folder)
        // SMTP down: nothing listens on the port.
        let down = try await ServerProcess.start(
            in: folder, clock: clock, ["--secret-key-file", key, "--mail", "smtp://127.0.0.1:\(try closedLoopbackPort())"])
        let account = TestAccount("waiting")
        try await down.signUp(account)
        try await eventually("a delivery was tried") { down.logs.contains("mail_delivery_failed") }
        await down.stop()
        let copy = try await DatabaseCopy.read(folder.database.path)
        let stored = try await Program.run("sqlite3", ["-separator", " ", folder.database.path, "SELECT subject, body FROM outbox;"])
        let rows = stored.stdout.split(separator: "\n")
        #expect(rows.count == 1, "\(stored.stdout)\(stored.stderr)")
        #expect(rows.allSatisfy { $0.hasPrefix("sbx1:") && $0.contains(" sbx1:") }, "subject and body sealed: \(stored.stdout)")

        // The sealed row copied under another id, to another address and ahead of the real one:
        // what someone who can write to the database would try.
        let copiedID = UUID().uuidString.lowercased()
        let thief = "thief@example.com"
        let insert = """
            INSERT INTO outbox (id, recipient, subject, body, created_at, attempts, next_attempt_at, kind)
            SELECT '\(copiedID)', '\(thief)', subject, body, created_at - 1, 0, next_attempt_at, kind FROM outbox;
            """
        let inserted = try await Program.run("sqlite3", [folder.database.path, insert])
        try #require(inserted.status.isSuccess, "sqlite3: \(inserted.stderr)")

        clock.set(ahead: 120)  // past the back-off, within the code's lifetime
        let up = try await ServerProcess.start(in: folder, clock: clock, ["--secret-key-file", key])
        let message = try #require(try await up.mail.arrived(1, to: account.email).last)
        let code = try #require(MailFolder.code(in: message))
        // The copy comes first in the outbox: had it been sent, it would be there by now.
        #expect(up.mail.messages(to: thief).isEmpty)
        try await eventually("the copy was refused", timeout: .seconds(10)) { !logEvents(up.logs, "mail_unopenable").isEmpty }
        let refused = logEvents(up.logs, "mail_unopenable")
        #expect(refused.count == 1 && refused.first?["id"] as? String == copiedID, "\(up.logs)")

        // Neither the database nor a log line held the code or a line of the mail.
        let logs = down.logs + up.logs
        #expect(!copy.contains(code: code))
        #expect(!MailFolder.sixDigitRuns(in: logs).contains(code))
        let lines = [MailFolder.subject(of: message)].compactMap { $0 } + MailFolder.plainLines(of: message)
        #expect(lines.count > 4)
        for line in lines where line != code {
            #expect(!copy.contains(line), "in the database: \(line)")
            #expect(!logs.contains(line), "in the log: \(line)")
        }
        try await up.verify(account.email)
        await up.stop()
    }
}
