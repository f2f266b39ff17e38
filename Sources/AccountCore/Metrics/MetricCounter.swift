import Synchronization

/// A monotonic counter that many threads bump without a lock.
package final class MetricCounter: Sendable {
    private let storage = Atomic<Int>(0)

    package init() {}

    /// Adds `amount` (one by default).
    package func add(_ amount: Int = 1) {
        storage.add(amount, ordering: .relaxed)
    }

    /// The current count.
    package var value: Int { storage.load(ordering: .relaxed) }
}
