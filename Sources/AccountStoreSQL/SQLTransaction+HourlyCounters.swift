import AccountStore
import Foundation

/// The operators' figures: counts by hour and name, only ever added to.
private enum HourlyCounterSQL {
    /// Additive: of servers flushing the same hour at once, every count lands (the row is made
    /// at the first, later ones add to it under its row lock).
    static let add = SQLStatement("""
        INSERT INTO hourly_counters (hour, name, value) VALUES (?, ?, ?)
        ON CONFLICT (hour, name) DO UPDATE SET value = hourly_counters.value + excluded.value
        """)
    static let from = SQLStatement("SELECT hour, name, value FROM hourly_counters WHERE hour >= ? ORDER BY hour, name")
    static let deleteBefore = SQLStatement("DELETE FROM hourly_counters WHERE hour < ?")
}

extension SQLTransaction {
    public func addHourlyCounts(_ counts: [HourlyCount]) throws {
        // In a fixed order, so two servers' flushes lock shared rows in the same order.
        for count in counts.sorted(by: { ($0.hour, $0.name) < ($1.hour, $1.name) }) where count.value != 0 {
            try execute(HourlyCounterSQL.add, [.date(count.hour), .text(count.name), .integer(count.value)])
        }
    }

    public func hourlyCounts(from date: Date) throws -> [HourlyCount] {
        try query(HourlyCounterSQL.from, [.date(date)]) { HourlyCount(hour: $0.date(0), name: $0.text(1), value: $0.int64(2)) }
    }

    @discardableResult
    public func deleteHourlyCounts(before date: Date) throws -> Int {
        try execute(HourlyCounterSQL.deleteBefore, [.date(date)])
    }
}
