import Synchronization

/// Counts requests handed to the async handler, so shutdown can wait for them.
///
/// A request enters when its connection is suspended and leaves in the request-completed
/// callback, that is after its response was sent (or the connection aborted).
final class InFlightRequests: Sendable {
    // Sequentially consistent throughout: `enter` and `beginStopping` each write one and then
    // read the other, which only that ordering keeps from both missing the other's write.
    private let count = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)

    /// Registers a request; `false` once shutdown has begun (the caller must not suspend).
    func enter() -> Bool {
        // Increment first, then check: with `beginStopping` storing first and then reading the
        // count, either this side sees the flag or shutdown sees the count (no lost request).
        count.add(1, ordering: .sequentiallyConsistent)
        if stopping.load(ordering: .sequentiallyConsistent) {
            count.subtract(1, ordering: .sequentiallyConsistent)
            return false
        }
        return true
    }

    /// Unregisters a request registered by `enter()`.
    func leave() {
        count.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// Whether shutdown has begun.
    var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// Refuses further requests from now on.
    func beginStopping() {
        stopping.store(true, ordering: .sequentiallyConsistent)
    }

    /// Suspends until no registered request remains.
    func drained() async {
        while count.load(ordering: .sequentiallyConsistent) > 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
