import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func event(_ user: UserRecord, _ type: String = "login_succeeded", at seconds: Int, id: UUID = UUID()) -> SecurityEventRecord {
        SecurityEventRecord(
            id: id, userID: user.id, at: Fixture.time(seconds), type: type, clientAddress: "192.0.2.7",
            deviceName: "MBTI Playground 1.2 · iPhone15,2 · iOS 17.4", detail: #"{"method":"password"}"#)
    }

    /// Security events: read per account, newest first by time then id, a page after a keyset
    /// position; pruned by age (oldest first, in batches) and by count per account; gone with
    /// their account, and rolled back with their transaction.
    static func securityEvents(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let other = Fixture.user("Other")
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertUser(other)
        }
        // Two at one moment: their ids decide, the greater first.
        let (low, high) = (UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, UUID(uuidString: "ffffffff-0000-4000-8000-000000000001")!)
        let events = [
            event(mina, at: 10), event(mina, "login_failed", at: 20), event(mina, "session_ended", at: 30, id: low),
            event(mina, "password_changed", at: 30, id: high), event(mina, "passkey_added", at: 40),
        ]
        try await store.write { tx in
            for event in events { try tx.insertSecurityEvent(event) }
            try tx.insertSecurityEvent(Self.event(other, at: 50))
        }
        let minimal = SecurityEventRecord(id: UUID.random(), userID: mina.id, at: Fixture.time(5), type: "mfa_enabled", clientAddress: nil, deviceName: nil)
        try await store.write { try $0.insertSecurityEvent(minimal) }

        let newest = [events[4], events[3], events[2], events[1], events[0], minimal]
        #expect(try await store.read { try $0.securityEvents(userID: mina.id, after: nil, limit: 10) } == newest)
        let first = try await store.read { try $0.securityEvents(userID: mina.id, after: nil, limit: 2) }
        #expect(first == Array(newest.prefix(2)))
        let position = KeysetPosition(time: first[1].at, id: first[1].id)
        let second = try await store.read { try $0.securityEvents(userID: mina.id, after: position, limit: 3) }
        #expect(second == Array(newest[2..<5]), "the event of the same moment with the lower id comes next")
        #expect(try await store.read { try $0.securityEvents(userID: other.id, after: nil, limit: 10) }.map(\.userID) == [other.id])

        // A rolled-back transaction keeps none of its events.
        await #expect(throws: Planned.self) {
            try await store.write { tx in
                try tx.insertSecurityEvent(Self.event(mina, at: 60))
                throw Planned()
            }
        }
        #expect(try await store.read { try $0.securityEvents(userID: mina.id, after: nil, limit: 100) }.count == 6)

        // By count: only accounts over it, and only their oldest go.
        #expect(try await store.read { try $0.accountsWithSecurityEvents(over: 3, limit: 10) } == [mina.id])
        #expect(try await store.read { try $0.accountsWithSecurityEvents(over: 6, limit: 10) } == [])
        #expect(try await store.write { try $0.trimSecurityEvents(userID: mina.id, keeping: 4) } == 2)
        #expect(try await store.read { try $0.securityEvents(userID: mina.id, after: nil, limit: 100) } == Array(newest.prefix(4)))
        #expect(try await store.write { try $0.trimSecurityEvents(userID: mina.id, keeping: 4) } == 0)

        // By age, oldest first, at most `limit` at a time; the other account's newer one stays.
        #expect(try await store.write { try $0.deleteSecurityEvents(before: Fixture.time(35), limit: 1) } == 1)
        #expect(try await store.read { try $0.securityEvents(userID: mina.id, after: nil, limit: 100) }.count == 3)
        #expect(try await store.write { try $0.deleteSecurityEvents(before: Fixture.time(35), limit: 100) } == 2)
        #expect(try await store.read { try $0.securityEvents(userID: mina.id, after: nil, limit: 100) } == [events[4]])
        #expect(try await store.read { try $0.securityEvents(userID: other.id, after: nil, limit: 100) }.count == 1)

        _ = try await store.write { try $0.deleteUser(id: mina.id) }
        #expect(try await store.read { try $0.securityEvents(userID: mina.id, after: nil, limit: 100) } == [])
        #expect(try await store.read { try $0.securityEvents(userID: other.id, after: nil, limit: 100) }.count == 1)
    }

    /// Hourly counters: additions to one hour and name add up (across transactions and within
    /// one), zeros write nothing, a read starts at an hour, and old hours are removed.
    static func hourlyCounters(_ store: any AccountStore) async throws {
        let (h0, h1, h2) = (Fixture.time(0), Fixture.time(3600), Fixture.time(7200))
        try await store.write { tx in
            try tx.addHourlyCounts([
                HourlyCount(hour: h0, name: "signups", value: 2), HourlyCount(hour: h1, name: "logins.failed", value: 5),
                HourlyCount(hour: h1, name: "refreshes", value: 0),
            ])
        }
        try await store.write { tx in
            try tx.addHourlyCounts([HourlyCount(hour: h0, name: "signups", value: 3), HourlyCount(hour: h2, name: "refreshes", value: 7)])
        }
        #expect(try await store.read { try $0.hourlyCounts(from: h0) } == [
            HourlyCount(hour: h0, name: "signups", value: 5), HourlyCount(hour: h1, name: "logins.failed", value: 5),
            HourlyCount(hour: h2, name: "refreshes", value: 7),
        ])
        #expect(try await store.read { try $0.hourlyCounts(from: h1) }.map(\.hour) == [h1, h2])
        #expect(try await store.write { try $0.deleteHourlyCounts(before: h2) } == 2)
        #expect(try await store.read { try $0.hourlyCounts(from: h0) } == [HourlyCount(hour: h2, name: "refreshes", value: 7)])
    }

    /// Forty flushes of one hour's counters at once, as several servers make them: every one lands.
    static func hourlyCounterRace(_ store: any AccountStore) async throws {
        let hour = Fixture.time(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await store.write { tx in
                        try tx.addHourlyCounts([HourlyCount(hour: hour, name: "logins.succeeded", value: 2), HourlyCount(hour: hour, name: "refreshes", value: 3)])
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.read { try $0.hourlyCounts(from: hour) } == [
            HourlyCount(hour: hour, name: "logins.succeeded", value: 80), HourlyCount(hour: hour, name: "refreshes", value: 120),
        ])
    }
}
