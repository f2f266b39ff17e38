import AccountStore
import AccountStoreSQL
import Foundation

extension SQLiteTransaction {
    /// Writes are serialized on one connection (`BEGIN IMMEDIATE`), so the row is ours until commit.
    func lockLoginThrottle(key: String, now: Date) throws -> LoginThrottleRecord {
        try execute(
            "INSERT INTO login_throttles (key, failures, window_start, locked_until, lockouts) VALUES (?, 0, ?, NULL, 0) ON CONFLICT (key) DO NOTHING",
            [.text(key), .date(now)])
        let record = try first(
            "SELECT key, failures, window_start, locked_until, lockouts FROM login_throttles WHERE key = ?", [.text(key)]
        ) { row in
            LoginThrottleRecord(
                key: row.text(0), failures: row.int(1), windowStart: row.date(2), lockedUntil: row.optionalDate(3),
                lockouts: row.int(4))
        }
        guard let record else { throw StoreError.failure(reason: "login throttle row vanished") }
        return record
    }

    func updateLoginThrottle(_ record: LoginThrottleRecord) throws {
        try execute(
            "UPDATE login_throttles SET failures = ?, window_start = ?, locked_until = ?, lockouts = ? WHERE key = ?",
            [.int(record.failures), .date(record.windowStart), .date(record.lockedUntil), .int(record.lockouts), .text(record.key)])
    }

    func deleteLoginThrottle(key: String) throws {
        try execute("DELETE FROM login_throttles WHERE key = ?", [.text(key)])
    }
}

extension SQLiteTransaction {
    /// One statement, so the count is right however many writers race (and on PostgreSQL too).
    func incrementRateCounter(key: String, now: Date, window: TimeInterval) throws -> RateCounter {
        let windowStartLimit = now.addingTimeInterval(-window)
        let counter = try first("""
            INSERT INTO rate_counters (key, count, window_start) VALUES (?, 1, ?)
            ON CONFLICT (key) DO UPDATE SET
                count = CASE WHEN rate_counters.window_start <= ? THEN 1 ELSE rate_counters.count + 1 END,
                window_start = CASE WHEN rate_counters.window_start <= ? THEN excluded.window_start ELSE rate_counters.window_start END
            RETURNING count, window_start
            """, [.text(key), .date(now), .date(windowStartLimit), .date(windowStartLimit)]
        ) { RateCounter(count: $0.int(0), windowStart: $0.date(1)) }
        guard let counter else { throw StoreError.failure(reason: "rate counter upsert returned nothing") }
        return counter
    }
}
