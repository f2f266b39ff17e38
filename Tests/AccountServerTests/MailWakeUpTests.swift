import AccountStore
import AccountStoreSQLite
import Foundation
import Mailer
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// Mail queued by a write goes out when the write commits: the store's hook wakes the dispatcher,
/// which otherwise only looks at the outbox on its timer.
@Suite struct MailWakeUpTests {
    @Test("a committed write that queued mail wakes delivery long before the dispatcher's timer")
    func aCommitWakesDelivery() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wake-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteAccountStore(path: folder.appendingPathComponent("account.sqlite").path)
        try await store.migrate()
        let clock = TestClock()
        let mail = folder.appendingPathComponent("mail")
        let dispatcher = MailDispatcher(
            store: store, transport: try FileMailTransport(directory: mail, sender: "no-reply@mbti.example"),
            clock: clock.serverClock, seal: .clear)
        // A timer of an hour: only the hook can make it deliver within the test.
        await dispatcher.start(interval: .seconds(3600))
        // The first round runs at start, with nothing to send; let it pass.
        try await Task.sleep(for: .milliseconds(300))

        try await store.write { tx in
            try tx.enqueueMail(OutboxMessage(
                id: UUID(), recipient: "minsu@example.com", subject: "Your code", body: "123456",
                createdAt: clock.now, nextAttemptAt: clock.now))
        }
        try await eventually("the message was delivered", timeout: .seconds(30)) {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: mail.path)) ?? []
            return files.contains { file in
                ((try? String(contentsOf: mail.appendingPathComponent(file), encoding: .utf8)) ?? "").contains("123456")
            }
        }
        await dispatcher.stop()
        await store.close()
    }
}
