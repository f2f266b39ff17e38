import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func loginThrottles(_ store: any AccountStore) async throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let fresh = try await store.write { try $0.lockLoginThrottle(key: "user-1", now: start) }
        #expect(fresh == LoginThrottleRecord(key: "user-1", windowStart: start))
        var changed = fresh
        changed.failures = 3
        changed.lockedUntil = start.addingTimeInterval(30)
        changed.lockouts = 1
        try await store.write { [changed] in try $0.updateLoginThrottle(changed) }
        let later = start.addingTimeInterval(5)
        #expect(try await store.write { try $0.lockLoginThrottle(key: "user-1", now: later) } == changed, "an existing row is kept, not reset")
        try await store.write { try $0.deleteLoginThrottle(key: "user-1") }
        #expect(try await store.write { try $0.lockLoginThrottle(key: "user-1", now: later) } == LoginThrottleRecord(key: "user-1", windowStart: later))
    }

    static func loginThrottleRace(_ store: any AccountStore) async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    try await store.write { tx in
                        var record = try tx.lockLoginThrottle(key: "raced", now: now)
                        record.failures += 1
                        try tx.updateLoginThrottle(record)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.write { try $0.lockLoginThrottle(key: "raced", now: now) }.failures == 100)
    }
}
