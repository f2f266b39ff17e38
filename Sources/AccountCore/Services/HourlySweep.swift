import AccountStore
import Foundation
import Synchronization

/// The server's hourly round of sweeps that keep tables bounded: the security history and the
/// hourly counters (``ActivitySweep``), the record of accepted Apple identity tokens
/// (``UsedAppleTokenSweep``), and the client addresses of sessions that ended by expiring
/// (``SessionAddressSweep``).
package final class HourlySweep: Sendable {
    private let store: any AccountStore
    private let clock: ServerClock
    private let policy: SessionPolicy
    private let task = Mutex<Task<Void, Never>?>(nil)

    package init(store: any AccountStore, clock: ServerClock, policy: SessionPolicy) {
        self.store = store
        self.clock = clock
        self.policy = policy
    }

    /// Sweeps every `interval`, the first time one `interval` after the start (never in the way of
    /// a start-up).
    package func start(every interval: Duration = .seconds(3600)) {
        let (store, clock, policy) = (store, clock, policy)
        let sweeper = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                _ = try? await ActivitySweep.sweep(store, now: clock.now())
                _ = try? await UsedAppleTokenSweep.sweep(store, now: clock.now())
                _ = try? await SessionAddressSweep.sweep(store, policy: policy, now: clock.now())
            }
        }
        task.withLock { $0 = sweeper }
    }

    package func stop() {
        task.withLock {
            $0?.cancel()
            $0 = nil
        }
    }
}
