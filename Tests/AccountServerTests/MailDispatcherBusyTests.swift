import AccountStore
import AccountStoreSQLite
import Foundation
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer
@testable import Mailer

/// The outbox under an SMTP transport whose bound is reached: a real SQLite file, a real
/// `SMTPMailTransport` (one conversation, one message waiting) and a loopback server that takes
/// connections and never answers.
@Suite struct MailDispatcherBusyTests {
    @Test("a transport too busy to take a message leaves it due with its attempts unchanged; a real failure counts")
    func aBusyTransportIsNotAnAttempt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dispatcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteAccountStore(path: folder.appendingPathComponent("account.sqlite").path)
        try await store.migrate()
        let clock = TestClock()
        let queued = OutboxMessage(
            id: UUID(), recipient: "minsu@example.com", subject: "Your code", body: "123456",
            createdAt: clock.now, nextAttemptAt: clock.now)
        try await store.write { try $0.enqueueMail(queued) }

        // Someone else fills the transport: one conversation hangs, one message waits.
        let server = try SilentServer()
        let transport = try SMTPMailTransport(
            url: server.url, sender: "no-reply@mbti.example", username: nil, password: nil, timeout: 30,
            now: { Date() }, conversations: 1, waitingLimit: 1)
        let other = MailMessage(to: "someone@example.com", subject: "other", text: "other")
        let talking = Task { try await transport.send(other) }
        try await eventually("the first send is in its conversation") { server.accepted == 1 }
        let waiting = Task { try await transport.send(other) }
        try await eventually("the second send waits") { transport.workers.queueLength == 1 }

        let dispatcher = MailDispatcher(store: store, transport: transport, clock: clock.serverClock, seal: .clear)
        #expect(await dispatcher.deliverDue() == 0)
        // Still there, due now, no attempt counted; and no connection was made for it.
        #expect(try await store.read { try $0.dueMail(now: clock.now, limit: 10) } == [queued])
        #expect(server.accepted == 1)

        // The server hangs up on everyone and stops listening: the two sends fail, the bound
        // frees, and the next round really tries the message. That failure is an attempt.
        server.stop()
        _ = try? await talking.value
        _ = try? await waiting.value
        #expect(await dispatcher.deliverDue() == 0)
        #expect(try await store.read { try $0.dueMail(now: clock.now, limit: 10) }.isEmpty, "backing off")
        let later = try await store.read { try $0.dueMail(now: clock.now.addingTimeInterval(3600), limit: 10) }
        #expect(later.map(\.id) == [queued.id])
        #expect(later.map(\.attempts) == [1])
        await store.close()
    }
}
