import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func rateCounters(_ store: any AccountStore) async throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func bump(_ key: String, at seconds: TimeInterval) async throws -> RateCounter {
            try await store.write { try $0.incrementRateCounter(key: key, now: start.addingTimeInterval(seconds), window: 60) }
        }
        #expect(try await bump("a", at: 0) == RateCounter(count: 1, windowStart: start))
        #expect(try await bump("a", at: 10).count == 2)
        #expect(try await bump("b", at: 10).count == 1, "keys count apart")
        #expect(try await bump("a", at: 59).count == 3)
        #expect(try await bump("a", at: 60) == RateCounter(count: 1, windowStart: start.addingTimeInterval(60)), "a new window")
    }

    static func rateCounterRace(_ store: any AccountStore) async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask { _ = try await store.write { try $0.incrementRateCounter(key: "raced", now: now, window: 60) } }
            }
            try await group.waitForAll()
        }
        #expect(try await store.write { try $0.incrementRateCounter(key: "raced", now: now, window: 60) }.count == 101)
    }
}
