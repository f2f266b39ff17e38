import Foundation

/// The account's security history (`security_events`) and the operators' hourly counters (`hourly_counters`).
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol EventsTransaction {
    func insertSecurityEvent(_ event: SecurityEventRecord) throws
    /// Up to `limit` of the account's security events, newest first (by time, then id), after
    /// `after` (a keyset position) when given.
    func securityEvents(userID: UUID, after: KeysetPosition?, limit: Int) throws -> [SecurityEventRecord]
    /// Removes up to `limit` security events older than `before`, oldest first; returns how many.
    @discardableResult func deleteSecurityEvents(before: Date, limit: Int) throws -> Int
    /// Up to `limit` accounts with more than `count` security events. A read: it may scan.
    func accountsWithSecurityEvents(over count: Int, limit: Int) throws -> [UUID]
    /// Removes the account's security events but the `keeping` newest; returns how many.
    @discardableResult func trimSecurityEvents(userID: UUID, keeping: Int) throws -> Int

    /// Adds each count to its hour and name (a row made at zero when absent), in one statement
    /// each, so counts of several servers add up and none overwrites another.
    func addHourlyCounts(_ counts: [HourlyCount]) throws
    /// Every count of an hour at or after `from`.
    func hourlyCounts(from: Date) throws -> [HourlyCount]
    /// Removes counts of hours before `before`; returns how many rows.
    @discardableResult func deleteHourlyCounts(before: Date) throws -> Int
}
