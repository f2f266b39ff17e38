import CMicroHTTPD

/// A lock-free integer shared between MHD threads and Swift tasks.
final class AtomicCounter: @unchecked Sendable {
    // Heap memory with a stable address: the C atomics operate on it directly.
    private let storage: UnsafeMutablePointer<Int>

    init(_ value: Int = 0) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deallocate()
    }

    var value: Int { cmhd_atomic_load(storage) }

    @discardableResult
    func add(_ delta: Int) -> Int { cmhd_atomic_add(storage, delta) }

    func store(_ value: Int) { cmhd_atomic_store(storage, value) }
}
