import AccountStore
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
