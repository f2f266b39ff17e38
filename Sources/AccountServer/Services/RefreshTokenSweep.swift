import AccountStore
import Foundation
import Synchronization

/// Empties `refresh_tokens`, where sessions kept their refresh tokens before a session kept its
/// current one itself, as the sessions it serves end.
///
/// Nothing writes that table any more; its rows are read so that a token issued before the
/// upgrade keeps working until it rotates and its reuse is still seen. A row whose session is past
/// its absolute expiry can never be used again (such a session answers `token_expired` whatever
/// it is shown), so the sweep removes it: once an hour, a batch at a time, found by a read (which
/// may scan the table, on a reader, never holding the writer) and deleted by hash. The table is
/// empty once the longest session of before (`--session-max-ttl`) has ended.
final class RefreshTokenSweep: Sendable {
    private let store: any AccountStore
    private let clock: ServerClock
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(store: any AccountStore, clock: ServerClock) {
        self.store = store
        self.clock = clock
    }

    /// Sweeps every `interval`, the first time one `interval` after the start (never in the way of
    /// a start-up).
    func start(every interval: Duration = .seconds(3600)) {
        let (store, clock) = (store, clock)
        let sweeper = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                _ = try? await Self.sweep(store, now: clock.now())
                // The same hourly round keeps the security history and the hourly counters bounded.
                _ = try? await ActivitySweep.sweep(store, now: clock.now())
                // And the record of accepted Apple identity tokens.
                _ = try? await UsedAppleTokenSweep.sweep(store, now: clock.now())
            }
        }
        task.withLock { $0 = sweeper }
    }

    func stop() {
        task.withLock {
            $0?.cancel()
            $0 = nil
        }
    }

    /// Removes every token from before whose session ended for good by `now`, `batch` at a time;
    /// returns how many.
    @discardableResult
    static func sweep(_ store: any AccountStore, now: Date, batch: Int = 1000) async throws -> Int {
        var removed = 0
        while true {
            let hashes = try await store.read { try $0.refreshTokensOfEndedSessions(before: now, limit: batch) }
            if hashes.isEmpty { return removed }
            removed += try await store.write { try $0.deleteRefreshTokens(hashes: hashes) }
            if hashes.count < batch { return removed }
        }
    }
}
