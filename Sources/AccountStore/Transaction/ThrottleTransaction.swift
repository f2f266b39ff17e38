import Foundation

/// Counting tries: the login back-off per account (`login_throttles`) and fixed-window rate counters (`rate_counters`).
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol ThrottleTransaction {
    // MARK: Login throttling

    /// The throttle row of `key`, created empty (window starting `now`) when absent, and locked
    /// for the rest of the transaction where the backend has row locks, so concurrent tries of one
    /// account are counted one after another.
    func lockLoginThrottle(key: String, now: Date) throws -> LoginThrottleRecord
    /// Saves a throttle row read with ``lockLoginThrottle(key:now:)``.
    func updateLoginThrottle(_ record: LoginThrottleRecord) throws
    /// Forgets the failures of `key` (after a success or a password reset).
    func deleteLoginThrottle(key: String) throws

    // MARK: Rate counters

    /// Counts one event under `key` in a fixed window of `window` seconds that starts at the first
    /// event (a new window once the old one has passed), atomically, and returns the counter.
    func incrementRateCounter(key: String, now: Date, window: TimeInterval) throws -> RateCounter
}
