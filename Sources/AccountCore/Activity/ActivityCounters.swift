import AccountAPI
import AccountStore
import Foundation
import Synchronization

/// What the operators' figures count, by hour: each is a name in `hourly_counters`.
package enum ActivityCounter: String, CaseIterable, Sendable {
    /// An account made.
    case signups
    case loginsSucceeded = "logins.succeeded"
    case loginsFailed = "logins.failed"
    case loginsMFARequired = "logins.mfa_required"
    case loginsRefused = "logins.refused"
    /// A refresh token traded for a pair (a rotation, or its repeat in the grace).
    case refreshes
    /// A code mailed (sign-up, verification, password reset).
    case codesSent = "codes_sent"
}

/// The hourly counters behind `GET /admin/api/figures`, counted in memory and added to the
/// database every few seconds.
///
/// Counting is a lock and a dictionary entry (a refresh keeps its one row write); a flush adds
/// what was counted since the last one to `hourly_counters` with one additive upsert per hour and
/// name, so several servers on one PostgreSQL database add up and none overwrites another.
/// Counts are flushed every ``interval``, before the figures are read (so a server's own
/// figures are exact to the moment), and at shutdown. A process killed outright (`kill -9`)
/// loses what it counted since its last flush: at most ``interval`` of activity. A flush that
/// fails puts its counts back for the next one.
package final class ActivityCounters: Sendable {
    private struct Key: Hashable {
        /// The start of the hour, in seconds since 1970.
        package var hour: Int64
        package var counter: ActivityCounter
    }

    /// How often counts are written.
    package static let interval: Duration = .seconds(2)

    private let store: any AccountStore
    private let pending = Mutex<[Key: Int64]>([:])
    /// The last flush begun: each waits for the one before, so a flush that returns has seen every
    /// count taken before it committed (the figures read after it miss none of this server's).
    private let lastFlush = Mutex<Task<Void, any Error>?>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    package init(store: any AccountStore) {
        self.store = store
    }

    /// Counts one `counter` in the hour of `date`.
    package func count(_ counter: ActivityCounter, at date: Date) {
        let key = Key(hour: Self.hourStart(of: date), counter: counter)
        pending.withLock { $0[key, default: 0] += 1 }
    }

    /// Adds everything counted so far to the database, after any flush already under way.
    package func flush() async throws {
        let mine = lastFlush.withLock { last -> Task<Void, any Error> in
            let previous = last
            let task = Task { [self] in
                _ = await previous?.result
                try await write()
            }
            last = task
            return task
        }
        try await mine.value
    }

    /// Writes what is counted now; puts it back when the write fails.
    private func write() async throws {
        let taken = pending.withLock { counts -> [Key: Int64] in
            defer { counts.removeAll(keepingCapacity: true) }
            return counts
        }
        guard !taken.isEmpty else { return }
        let rows = taken.map { HourlyCount(hour: Date(timeIntervalSince1970: TimeInterval($0.key.hour)), name: $0.key.counter.rawValue, value: $0.value) }
        do {
            try await store.write { try $0.addHourlyCounts(rows) }
        } catch {
            pending.withLock { counts in
                for (key, value) in taken { counts[key, default: 0] += value }
            }
            throw error
        }
    }

    /// Flushes every ``interval`` until ``stop()``.
    package func start() {
        let flusher = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.interval)
                try? await flush()
            }
        }
        task.withLock { $0 = flusher }
    }

    /// Stops the timer and flushes what is left.
    package func stop() async {
        let flusher = task.withLock { task -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        flusher?.cancel()
        await flusher?.value
        do {
            try await flush()
        } catch {
            Log.notice("activity_counts_lost", ["reason": String(describing: type(of: error))])
        }
    }

    /// The start of the UTC hour of `date`, in seconds since 1970.
    package static func hourStart(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 3600).rounded(.down)) * 3600
    }
}
