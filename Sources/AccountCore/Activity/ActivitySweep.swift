import AccountStore
import Foundation

/// Keeps the security history and the hourly counters bounded: run once an hour by the server's
/// periodic sweep (``HourlySweep``), and by tests directly.
///
/// Security events are kept ``eventsKeptFor`` (90 days) and at most ``eventsPerAccount`` per
/// account (the newest); counters ``countersKeptFor``. Old rows are found by their time index and
/// removed a batch at a time; accounts over the count are found by one grouped read, which may
/// scan, on a reader, never holding the writer.
package enum ActivitySweep {
    package static let eventsKeptFor: TimeInterval = 90 * 86_400
    package static let eventsPerAccount = 300
    package static let countersKeptFor: TimeInterval = 90 * 86_400

    /// What one sweep removed.
    package struct Removed: Equatable, Sendable {
        package var oldEvents = 0
        package var eventsOverCount = 0
        package var counterRows = 0
    }

    @discardableResult
    package static func sweep(_ store: any AccountStore, now: Date, batch: Int = 1000) async throws -> Removed {
        var removed = Removed()
        let cutoff = now.addingTimeInterval(-eventsKeptFor)
        while true {
            let deleted = try await store.write { try $0.deleteSecurityEvents(before: cutoff, limit: batch) }
            removed.oldEvents += deleted
            if deleted < batch { break }
        }
        while true {
            let accounts = try await store.read { try $0.accountsWithSecurityEvents(over: eventsPerAccount, limit: batch) }
            for account in accounts {
                removed.eventsOverCount += try await store.write { try $0.trimSecurityEvents(userID: account, keeping: eventsPerAccount) }
            }
            if accounts.count < batch { break }
        }
        let counterCutoff = Date(timeIntervalSince1970: TimeInterval(ActivityCounters.hourStart(of: now.addingTimeInterval(-countersKeptFor))))
        removed.counterRows = try await store.write { try $0.deleteHourlyCounts(before: counterCutoff) }
        return removed
    }
}
