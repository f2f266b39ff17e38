import AccountStore
import Foundation
import Synchronization
import Testing

extension StoreConformance {
    static func outbox(_ store: any AccountStore) async throws {
        let older = Fixture.mail(to: "a@example.com", createdAt: Fixture.time(0), due: Fixture.time(5))
        let newer = Fixture.mail(to: "b@example.com", createdAt: Fixture.time(1), due: Fixture.time(1))
        let later = Fixture.mail(to: "c@example.com", createdAt: Fixture.time(2), due: Fixture.time(100))
        try await store.write { tx in
            try tx.enqueueMail(later)
            try tx.enqueueMail(newer)
            try tx.enqueueMail(older)
        }
        #expect(try await store.read { try $0.outboxCount() } == 3)
        #expect(try await store.read { try $0.dueMail(now: Fixture.time(10), limit: 10) } == [older, newer])
        #expect(try await store.read { try $0.dueMail(now: Fixture.time(10), limit: 1) } == [older])
        #expect(try await store.read { try $0.dueMail(now: Fixture.time(0), limit: 10) }.isEmpty)

        #expect(try await store.write { try $0.claimMail(id: older.id, now: Fixture.time(10), until: Fixture.time(70)) })
        #expect(try await store.write { try $0.claimMail(id: older.id, now: Fixture.time(11), until: Fixture.time(71)) } == false)
        #expect(try await store.write { try $0.claimMail(id: later.id, now: Fixture.time(11), until: Fixture.time(71)) } == false)
        #expect(try await store.read { try $0.dueMail(now: Fixture.time(10), limit: 10) } == [newer])
        // A claim that ran out (the sender died) can be taken over.
        #expect(try await store.write { try $0.claimMail(id: older.id, now: Fixture.time(70), until: Fixture.time(130)) })

        try await store.write { try $0.rescheduleMail(id: newer.id, attempts: 1, nextAttemptAt: Fixture.time(200)) }
        var rescheduled = newer
        rescheduled.attempts = 1
        rescheduled.nextAttemptAt = Fixture.time(200)
        #expect(try await store.read { try $0.dueMail(now: Fixture.time(300), limit: 10) }.contains(rescheduled))

        try await store.write { try $0.deleteMail(id: older.id) }
        #expect(try await store.read { try $0.outboxCount() } == 2)
        #expect(try await store.read { try $0.dueMail(now: Fixture.time(300), limit: 10) } == [rescheduled, later])
    }

    /// The hook is told after a committed write that queued mail; not for a write that queued
    /// none, nor for one that queued mail and rolled back.
    static func mailQueuedHook(_ store: any AccountStore) async throws {
        let calls = Mutex(0)
        store.whenMailQueued { calls.withLock { $0 += 1 } }
        try await store.write { try $0.enqueueMail(Fixture.mail(to: "a@example.com", createdAt: Fixture.time(0), due: Fixture.time(0))) }
        #expect(calls.withLock { $0 } == 1)
        try await store.write { _ = try $0.outboxCount() }
        #expect(calls.withLock { $0 } == 1, "a write that queued nothing")
        struct Abandoned: Error {}
        await #expect(throws: Abandoned.self) {
            try await store.write { tx in
                try tx.enqueueMail(Fixture.mail(to: "b@example.com", createdAt: Fixture.time(1), due: Fixture.time(1)))
                throw Abandoned()
            }
        }
        #expect(calls.withLock { $0 } == 1, "a write that rolled back")
        #expect(try await store.read { try $0.outboxCount() } == 1)
        store.whenMailQueued {}
    }

    /// Sealing the database lists every waiting message, claimed or backing off, and rewrites its
    /// text in place: rows of other kinds are not listed, and nothing but the text changes.
    static func outboxTextRewrite(_ store: any AccountStore) async throws {
        let due = Fixture.mail(to: "a@example.com", createdAt: Fixture.time(0), due: Fixture.time(0))
        let backingOff = Fixture.mail(to: "b@example.com", createdAt: Fixture.time(1), due: Fixture.time(3600))
        let revocation = OutboxMessage(
            id: UUID(), recipient: "com.example.mbti", subject: "", body: "c2VhbGVk", createdAt: Fixture.time(2), nextAttemptAt: Fixture.time(2),
            kind: .appleRevocation)
        try await store.write { tx in
            try tx.enqueueMail(revocation)
            try tx.enqueueMail(backingOff)
            try tx.enqueueMail(due)
        }
        #expect(try await store.write { try $0.claimMail(id: due.id, now: Fixture.time(10), until: Fixture.time(70)) })
        var claimed = due
        claimed.nextAttemptAt = Fixture.time(70)
        #expect(try await store.read { try $0.waitingMail() } == [claimed, backingOff])

        #expect(try await store.write { try $0.replaceMailText(id: backingOff.id, subject: "sbx1:c3ViamVjdA==", body: "sbx1:Ym9keQ==") })
        #expect(try await store.write { try $0.replaceMailText(id: UUID(), subject: "", body: "") } == false)
        var replaced = backingOff
        replaced.subject = "sbx1:c3ViamVjdA=="
        replaced.body = "sbx1:Ym9keQ=="
        #expect(try await store.read { try $0.waitingMail() } == [claimed, replaced])
        #expect(try await store.read { try $0.dueMail(now: Fixture.time(3600), limit: 10) } == [claimed, replaced, revocation])
    }

    static func claimMailRace(_ store: any AccountStore) async throws {
        let message = Fixture.mail()
        try await store.write { try $0.enqueueMail(message) }
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await store.write { try $0.claimMail(id: message.id, now: Fixture.time(10), until: Fixture.time(70)) }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
    }
}
