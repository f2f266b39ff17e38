import AccountStore
import AccountStoreSQL
import Foundation

extension PostgresTransaction {
    /// Creates the row if absent and takes its row lock until the transaction ends, in one
    /// statement, so two servers counting tries of one account wait for each other.
    ///
    /// `ON CONFLICT DO UPDATE` (a no-op update) rather than an insert that does nothing and a
    /// separate `SELECT … FOR UPDATE`: between those two, a login that succeeded elsewhere could
    /// delete the row, and the select would find nothing. PostgreSQL guarantees the upsert either
    /// inserts or locks and returns the row, however many run at once.
    func lockLoginThrottle(key: String, now: Date) throws -> LoginThrottleRecord {
        let record = try first("""
            INSERT INTO login_throttles (key, failures, window_start, locked_until, lockouts) VALUES ($1, 0, $2, NULL, 0)
            ON CONFLICT (key) DO UPDATE SET failures = login_throttles.failures
            RETURNING key, failures, window_start, locked_until, lockouts
            """, [.text(key), .date(now)]
        ) { row in
            LoginThrottleRecord(
                key: row.text(0), failures: row.int(1), windowStart: row.date(2), lockedUntil: row.optionalDate(3),
                lockouts: row.int(4))
        }
        guard let record else { throw StoreError.failure(reason: "login throttle upsert returned nothing") }
        return record
    }

    func updateLoginThrottle(_ record: LoginThrottleRecord) throws {
        try execute(
            "UPDATE login_throttles SET failures = $1, window_start = $2, locked_until = $3, lockouts = $4 WHERE key = $5",
            [.int(record.failures), .date(record.windowStart), .date(record.lockedUntil), .int(record.lockouts), .text(record.key)])
    }

    func deleteLoginThrottle(key: String) throws {
        try execute("DELETE FROM login_throttles WHERE key = $1", [.text(key)])
    }

    /// One statement: the upsert takes the row lock, so racing servers count every event.
    func incrementRateCounter(key: String, now: Date, window: TimeInterval) throws -> RateCounter {
        let windowStartLimit = now.addingTimeInterval(-window)
        let counter = try first("""
            INSERT INTO rate_counters (key, count, window_start) VALUES ($1, 1, $2)
            ON CONFLICT (key) DO UPDATE SET
                count = CASE WHEN rate_counters.window_start <= $3 THEN 1 ELSE rate_counters.count + 1 END,
                window_start = CASE WHEN rate_counters.window_start <= $3 THEN excluded.window_start ELSE rate_counters.window_start END
            RETURNING count, window_start
            """, [.text(key), .date(now), .date(windowStartLimit)]
        ) { RateCounter(count: $0.int(0), windowStart: $0.date(1)) }
        guard let counter else { throw StoreError.failure(reason: "rate counter upsert returned nothing") }
        return counter
    }
}
