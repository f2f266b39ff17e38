import AccountStore
import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// The hourly sweep keeps the security history and the counters bounded: events older than 90
/// days go, an account keeps its 300 newest, counters older than 90 days go; what is younger stays.
@Suite struct ActivitySweepTests {
    @Test func oldEventsAndAnAccountsOldestBeyondItsShareGo() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(TestAccount(username: "하나", email: "hana@example.com", password: "correct horse battery"))
        try await harness.signedIn(TestAccount(username: "두리", email: "duri@example.com", password: "correct horse battery"))
        let (busy, quiet) = try await harness.store.read { tx in
            (try tx.user(emailKey: "hana@example.com")!.id, try tx.user(emailKey: "duri@example.com")!.id)
        }
        let now = harness.clock.now
        let day: TimeInterval = 86_400
        try await harness.store.write { tx in
            // The busy account: 320 events in the last day (after its sign-in's), and 5 from 100 days ago.
            for index in 1...320 {
                try tx.insertSecurityEvent(SecurityEventRecord(
                    id: UUID.random(), userID: busy, at: now.addingTimeInterval(-Double(index) * 60), type: "login_failed", clientAddress: nil, deviceName: nil))
            }
            for index in 0..<5 {
                try tx.insertSecurityEvent(SecurityEventRecord(
                    id: UUID.random(), userID: busy, at: now.addingTimeInterval(-100 * day - Double(index)), type: "login_succeeded", clientAddress: nil, deviceName: nil))
            }
            // The quiet one: one event 89 days ago, one 91.
            try tx.insertSecurityEvent(SecurityEventRecord(id: UUID.random(), userID: quiet, at: now.addingTimeInterval(-89 * day), type: "password_changed", clientAddress: nil, deviceName: nil))
            try tx.insertSecurityEvent(SecurityEventRecord(id: UUID.random(), userID: quiet, at: now.addingTimeInterval(-91 * day), type: "mfa_enabled", clientAddress: nil, deviceName: nil))
            try tx.addHourlyCounts([
                HourlyCount(hour: now.addingTimeInterval(-91 * day), name: "signups", value: 4),
                HourlyCount(hour: now.addingTimeInterval(-30 * day), name: "signups", value: 2),
            ])
        }
        let removed = try await ActivitySweep.sweep(harness.store, now: now, batch: 2)
        #expect(removed.oldEvents == 6 && removed.counterRows == 1)
        // Each sign-in of setUp wrote a login event too: the busy account's newest 300 stay.
        #expect(removed.eventsOverCount == 21)
        let kept = try await harness.store.read { try $0.securityEvents(userID: busy, after: nil, limit: 1000) }
        #expect(kept.count == 300 && kept.first?.type == "login_succeeded", "the sign-in of the set-up is the newest")
        #expect(kept.last?.at == now.addingTimeInterval(-299 * 60))
        let theirs = try await harness.store.read { try $0.securityEvents(userID: quiet, after: nil, limit: 1000) }
        #expect(theirs.map(\.type) == ["login_succeeded", "password_changed"])
        let old = try await harness.store.read { try $0.hourlyCounts(from: .distantPast) }.filter { $0.hour < now.addingTimeInterval(-day) }
        #expect(old.map(\.value) == [2])
        #expect(try await ActivitySweep.sweep(harness.store, now: now) == ActivitySweep.Removed(), "a second sweep finds nothing")
    }
}
