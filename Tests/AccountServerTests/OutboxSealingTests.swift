import AccountStore
import Foundation
import InProcess
import Mailer
import Sodium
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// Mail waiting in the outbox under `--secret-key-file`: sealed in the database from the moment
/// it is queued (or from the key's adoption), opened only to be sent; a copy of the database
/// alone holds no code.
@Suite("Waiting mail sealed with --secret-key-file")
struct OutboxSealingTests {
    static let password = "correct horse battery"

    @Test("with mail down, a copy of the database holds no code and no line of the waiting mail; it is sent once mail works")
    func waitingCodesAreSealed() async throws {
        let folder = try ServerFolder()
        let harness = try await folder.start(keyFile: try folder.keyFile())
        try await harness.signedIn(TestAccount(username: "민수", email: "reset@example.com", password: Self.password))
        harness.clock.advance(120)  // past the address's mail interval
        try harness.breakMail()
        #expect(try await harness.send("POST", "/auth/password/reset", json: ["email": "reset@example.com"]).status == 202)
        try await harness.signUp(TestAccount(username: "waiting", email: "waiting@example.com", password: Self.password))
        await harness.app.deliverMail()
        let waiting = try await harness.waitingMail()
        #expect(waiting.count == 2)
        #expect(waiting.allSatisfy { $0.attempts == 1 }, "tried, and mail is down")
        for row in waiting {
            #expect(SecretSeal.isSealed(text: row.subject) && SecretSeal.isSealed(text: row.body), "\(row.recipient)")
        }
        let copy = try await DatabaseCopy.read(folder.database.path)

        try harness.repairMail()
        harness.clock.advance(30)  // past the back-off, within the codes' lifetime
        _ = try await harness.mails()
        #expect(try await harness.counts()[1] == 0, "a sent message leaves the outbox")
        let reset = try #require(harness.mail.messages(to: "reset@example.com").last)
        let signUp = try #require(harness.mail.messages(to: "waiting@example.com").last)
        var codes: [String] = []
        for message in [reset, signUp] {
            let code = try #require(MailFolder.code(in: message))
            codes.append(code)
            #expect(!copy.contains(code: code), "the code \(code) is in the database")
            let lines = [MailFolder.subject(of: message)].compactMap { $0 } + MailFolder.plainLines(of: message)
            #expect(lines.count > 4)
            for line in lines where line != code {
                #expect(!copy.contains(line), "in the database: \(line)")
            }
        }
        // The codes mailed are the live ones: the reset sets a password, the sign-up completes.
        let confirmed = try await harness.send("POST", "/auth/password/reset/confirm", json: [
            "email": "reset@example.com", "code": codes[0], "new_password": "a brand new passphrase",
        ])
        #expect(confirmed.status == 204, "\(confirmed.text)")
        #expect(try await harness.send("POST", "/auth/login", json: ["email": "reset@example.com", "password": "a brand new passphrase"]).status == 200)
        #expect(try await harness.send("POST", "/auth/email/verify", json: ["email": "waiting@example.com", "code": codes[1]]).status == 200)
        await folder.stop(harness)
    }

    @Test("a message that does not open is not sent, backs off, and holds up nothing; a server that can open it sends it")
    func unopenableMailIsNotSent() async throws {
        let folder = try ServerFolder()
        let harness = try await folder.start(keyFile: try folder.keyFile())
        let seal = harness.app.services.secrets.seal
        let dispatcher = harness.app.services.mail
        // Rounds run from here on only when the test calls them.
        await dispatcher.stop()
        let now = harness.clock.now
        func message(_ to: String, queued secondsAgo: TimeInterval) -> OutboxMessage {
            OutboxMessage(
                id: UUID(), recipient: to, subject: "Your code", body: "Enter 424242 to sign in.",
                createdAt: now.addingTimeInterval(-secondsAgo), nextAttemptAt: now)
        }
        // Oldest first, so each comes before the one that opens.
        let clear = message("clear@example.com", queued: 5)
        let foreign = SecretSeal(key: .generate()).sealed(mail: message("foreign@example.com", queued: 4))
        let genuine = seal.sealed(mail: message("genuine@example.com", queued: 1))
        var moved = genuine
        moved.id = UUID()
        moved.recipient = "thief@example.com"
        moved.createdAt = now.addingTimeInterval(-3)
        var altered = seal.sealed(mail: message("altered@example.com", queued: 2))
        let middle = altered.body.index(altered.body.startIndex, offsetBy: 20)
        altered.body.replaceSubrange(middle...middle, with: altered.body[middle] == "A" ? "B" : "A")
        let rows = [clear, foreign, moved, altered, genuine]
        try await harness.store.write { tx in
            for row in rows { try tx.enqueueMail(row) }
        }

        #expect(await dispatcher.deliverDue() == 1)
        let sent = harness.mail.messages()
        #expect(sent.count == 1)
        #expect(sent.first.flatMap(MailFolder.recipient(of:)) == "genuine@example.com")
        #expect(sent.first.map(MailFolder.plainLines(of:)) == ["Enter 424242 to sign in."])
        let left = try await harness.waitingMail()
        #expect(left.map(\.id) == [clear.id, foreign.id, moved.id, altered.id])
        #expect(left.allSatisfy { $0.attempts == 1 && $0.nextAttemptAt > now }, "each counts as a failed try and backs off")

        // A server of the same database still running without the key sends the clear one only.
        harness.clock.advance(3600)
        let keyless = MailDispatcher(
            store: harness.store, transport: try FileMailTransport(directory: harness.mailFolder, sender: "no-reply@example.com"),
            clock: harness.clock.serverClock, seal: .clear)
        #expect(await keyless.deliverDue() == 1)
        #expect(harness.mail.messages(to: "clear@example.com").count == 1)
        #expect(try await harness.waitingMail().map(\.id) == [foreign.id, moved.id, altered.id])
        #expect(harness.mail.messages().count == 2, "nothing went to foreign@, thief@ or altered@")
        await folder.stop(harness)
    }

    @Test("mail queued in clear is sealed when the key is adopted and opened again by keys unseal, keeping its place")
    func adoptionAndUnsealRewriteWaitingMail() async throws {
        let folder = try ServerFolder()
        let clear = try await folder.start(keyFile: nil)
        try clear.breakMail()
        try await clear.signUp(TestAccount(username: "queued", email: "queued@example.com", password: Self.password))
        await clear.app.deliverMail()
        let before = try await clear.waitingMail()
        #expect(before.count == 1 && before.first?.attempts == 1)
        #expect(before.allSatisfy { !SecretSeal.isSealed(text: $0.body) }, "without a key file mail waits as it is")
        let original = try #require(before.first)
        await folder.stop(clear)

        let keyFile = try folder.keyFile()
        let sealed = try await folder.start(keyFile: keyFile)
        let seal = sealed.app.services.secrets.seal
        let adopted = try #require(try await sealed.waitingMail().first)
        #expect(adopted.id == original.id && adopted.attempts == 1 && adopted.nextAttemptAt == original.nextAttemptAt, "it keeps its place")
        #expect(SecretSeal.isSealed(text: adopted.subject) && SecretSeal.isSealed(text: adopted.body))
        #expect(try seal.mail(adopted) == MailMessage(to: original.recipient, subject: original.subject, text: original.body))
        let dump = try await DatabaseCopy.read(folder.database.path).dump
        for line in [original.subject] + original.body.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty {
            #expect(!dump.contains(line), "in the database: \(line)")
        }
        // A box moved to another row: unseal cannot open it, and no server could send it after.
        var moved = adopted
        moved.id = UUID()
        moved.recipient = "thief@example.com"
        let copied = moved
        try await sealed.store.write { try $0.enqueueMail(copied) }
        await folder.stop(sealed)

        let counts = try await folder.unseal(keyFile: keyFile)
        #expect(counts.mail == 1 && counts.unopenedMail == 1)
        let clearAgain = try await folder.start(keyFile: nil)
        #expect(try await clearAgain.waitingMail() == before, "as it was queued; the moved copy is gone")
        clearAgain.clock.advance(30)
        let code = try #require(try await clearAgain.latestCode(to: "queued@example.com"))
        #expect(try await clearAgain.send("POST", "/auth/email/verify", json: ["email": "queued@example.com", "code": code]).status == 200)
        #expect(clearAgain.mail.messages(to: "thief@example.com").isEmpty)
        await folder.stop(clearAgain)
    }
}

extension InProcessServer {
    /// Makes every delivery fail, as SMTP down would: a file stands where the mail folder was.
    func breakMail() throws {
        try FileManager.default.removeItem(at: mailFolder)
        try Data().write(to: mailFolder)
    }

    /// Gives the mail folder back (empty), so deliveries work again.
    func repairMail() throws {
        try FileManager.default.removeItem(at: mailFolder)
        try FileManager.default.createDirectory(at: mailFolder, withIntermediateDirectories: false)
    }

    /// The outbox's mail as stored.
    func waitingMail() async throws -> [OutboxMessage] {
        try await store.read { try $0.waitingMail() }
    }
}
