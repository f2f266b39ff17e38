import Synchronization

/// A monotonic counter that many threads bump without a lock.
final class MetricCounter: Sendable {
    private let storage = Atomic<Int>(0)

    init() {}

    /// Adds `amount` (one by default).
    func add(_ amount: Int = 1) {
        storage.add(amount, ordering: .relaxed)
    }

    /// The current count.
    var value: Int { storage.load(ordering: .relaxed) }
}
