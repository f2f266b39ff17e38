import AccountAPI
import AccountStore
import Foundation

/// The operators' figures: sign-ups, logins, refreshes and codes mailed over time.
package struct FiguresOperations {
    package let services: Services

    /// The figures at `now`: per hour for the last 24 hours and per day for the last 30 days
    /// (UTC), from the hourly counters of every server on the database. This server's counts are
    /// flushed first, so they are there to the moment; another server's may be a few seconds behind.
    package func figures(now: Date) async throws -> AdminFigures {
        try await services.activity.flush()
        let from = Figures.firstHour(now: now)
        let counts = try await services.store.read { try $0.hourlyCounts(from: from) }
        return Figures.make(counts, now: now)
    }
}
