import AccountStore
import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

/// The hourly sweep keeps the record of accepted Apple identity tokens bounded: a row goes once
/// its token has expired (and with it any chance of a replay), however many there are, a batch a
/// transaction; the rows of tokens still valid stay.
@Suite struct UsedAppleTokenSweepTests {
    @Test func expiredTokensGoInBatchesAndLiveOnesStay() async throws {
        let harness = try await Harness.make()
        let now = harness.clock.now
        try await harness.store.write { tx in
            for index in 0..<25 {
                let hash = Array(repeating: UInt8(index), count: 32)
                // 20 expired (the newest exactly now), 5 still valid.
                let expiry = index < 20 ? now.addingTimeInterval(-Double(index) * 30) : now.addingTimeInterval(Double(index))
                _ = try tx.insertUsedAppleToken(UsedAppleTokenRecord(hash: hash, expiresAt: expiry))
            }
        }
        #expect(try await UsedAppleTokenSweep.sweep(harness.store, now: now, batch: 3) == 20)
        #expect(try await harness.store.rowCounts()["apple_used_tokens"] == 5)
        let stillUsed = try await harness.store.write { tx in
            try (20..<25).filter { try !tx.insertUsedAppleToken(UsedAppleTokenRecord(hash: Array(repeating: UInt8($0), count: 32), expiresAt: now)) }
        }
        #expect(stillUsed.count == 5, "a live token's record is kept")
        #expect(try await UsedAppleTokenSweep.sweep(harness.store, now: now) == 0, "a second sweep finds nothing")
    }
}
