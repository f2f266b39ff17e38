import AccountStore
import Foundation

/// Failed-login bookkeeping and fixed-window rate counters, shared by every server.
private enum ThrottleSQL {
    /// Creates the row if absent and returns it, locked until the transaction ends, in one
    /// statement. `ON CONFLICT DO UPDATE` (a no-op update) rather than an insert that does
    /// nothing and a separate `SELECT … FOR UPDATE`: between those two, a login that succeeded on
    /// another PostgreSQL connection could delete the row, and the select would find nothing.
    /// PostgreSQL guarantees the upsert either inserts or locks and returns the row, however many
    /// run at once; on SQLite the writer's transaction holds the row anyway.
    static let lock = SQLStatement("""
        INSERT INTO login_throttles (key, failures, window_start, locked_until, lockouts) VALUES (?, 0, ?, NULL, 0)
        ON CONFLICT (key) DO UPDATE SET failures = login_throttles.failures
        RETURNING key, failures, window_start, locked_until, lockouts
        """)
    static let update = SQLStatement(
        "UPDATE login_throttles SET failures = ?, window_start = ?, locked_until = ?, lockouts = ? WHERE key = ?")
    static let delete = SQLStatement("DELETE FROM login_throttles WHERE key = ?")
}

private enum RateCounterSQL {
    /// One statement, so the count is right however many writers race: the upsert takes the row
    /// lock. The window's start limit is bound twice (parameters 3 and 4).
    static let increment = SQLStatement("""
        INSERT INTO rate_counters (key, count, window_start) VALUES (?, 1, ?)
        ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN rate_counters.window_start <= ? THEN 1 ELSE rate_counters.count + 1 END,
            window_start = CASE WHEN rate_counters.window_start <= ? THEN excluded.window_start ELSE rate_counters.window_start END
        RETURNING count, window_start
        """)
}

extension SQLTransaction {
    public func lockLoginThrottle(key: String, now: Date) throws -> LoginThrottleRecord {
        let record = try first(ThrottleSQL.lock, [.text(key), .date(now)]) { row in
            LoginThrottleRecord(
                key: row.text(0), failures: row.int(1), windowStart: row.date(2), lockedUntil: row.optionalDate(3),
                lockouts: row.int(4))
        }
        guard let record else { throw StoreError.failure(reason: "login throttle upsert returned nothing") }
        return record
    }

    public func updateLoginThrottle(_ record: LoginThrottleRecord) throws {
        try execute(ThrottleSQL.update, [
            .int(record.failures), .date(record.windowStart), .date(record.lockedUntil), .int(record.lockouts), .text(record.key),
        ])
    }

    public func deleteLoginThrottle(key: String) throws {
        try execute(ThrottleSQL.delete, [.text(key)])
    }

    public func incrementRateCounter(key: String, now: Date, window: TimeInterval) throws -> RateCounter {
        let windowStartLimit = now.addingTimeInterval(-window)
        let counter = try first(
            RateCounterSQL.increment, [.text(key), .date(now), .date(windowStartLimit), .date(windowStartLimit)]
        ) { RateCounter(count: $0.int(0), windowStart: $0.date(1)) }
        guard let counter else { throw StoreError.failure(reason: "rate counter upsert returned nothing") }
        return counter
    }
}
