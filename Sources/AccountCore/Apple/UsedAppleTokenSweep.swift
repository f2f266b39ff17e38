import AccountStore
import Foundation

/// Keeps the record of accepted Apple identity tokens bounded: a row is needed only while its
/// token could still be accepted (its `exp` with the skew, at most a day ahead:
/// ``AppleIdentityVerifier/maximumLifetime``), so the server's hourly sweep
/// (``HourlySweep``) removes expired ones by their time index, a batch a transaction.
package enum UsedAppleTokenSweep {
    /// Removes every used token that expired by `now`, `batch` at a time; returns how many.
    @discardableResult
    package static func sweep(_ store: any AccountStore, now: Date, batch: Int = 1000) async throws -> Int {
        var removed = 0
        while true {
            let deleted = try await store.write { try $0.deleteUsedAppleTokens(expiredBefore: now, limit: batch) }
            removed += deleted
            if deleted < batch { return removed }
        }
    }
}
