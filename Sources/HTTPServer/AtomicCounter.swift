import Synchronization

/// A lock-free integer shared between event-loop threads and Swift tasks.
final class AtomicCounter: Sendable {
    private let storage: Atomic<Int>

    init(_ value: Int = 0) {
        storage = Atomic(value)
    }

    var value: Int { storage.load(ordering: .sequentiallyConsistent) }

    @discardableResult
    func add(_ delta: Int) -> Int { storage.add(delta, ordering: .sequentiallyConsistent).newValue }

    func store(_ value: Int) { storage.store(value, ordering: .sequentiallyConsistent) }
}
