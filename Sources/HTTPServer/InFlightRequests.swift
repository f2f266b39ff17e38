/// Counts requests handed to the async handler, so shutdown can wait for them.
///
/// A request enters when its connection is suspended and leaves in the request-completed
/// callback, that is after its response was sent (or the connection aborted).
final class InFlightRequests: Sendable {
    private let count = AtomicCounter()
    private let stoppingFlag = AtomicCounter()

    /// Registers a request; `false` once shutdown has begun (the caller must not suspend).
    func enter() -> Bool {
        // Increment first, then check: with `beginStopping` storing first and then reading the
        // count, either this side sees the flag or shutdown sees the count (no lost request).
        count.add(1)
        if stoppingFlag.value != 0 {
            count.add(-1)
            return false
        }
        return true
    }

    /// Unregisters a request registered by `enter()`.
    func leave() {
        count.add(-1)
    }

    /// Whether shutdown has begun.
    var isStopping: Bool { stoppingFlag.value != 0 }

    /// Refuses further requests from now on.
    func beginStopping() {
        stoppingFlag.store(1)
    }

    /// Suspends until no registered request remains.
    func drained() async {
        while count.value > 0 {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
