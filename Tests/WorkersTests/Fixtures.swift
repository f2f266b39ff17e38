import Dispatch
import Foundation
import Synchronization
@testable import Workers

/// A resource that says which threads used it and when it was released.
final class Probe {
    let id: Int
    private let log: ProbeLog
    init(_ id: Int, log: ProbeLog) {
        self.id = id
        self.log = log
    }
    func use() { log.used(id) }
    deinit { log.released(id) }
}

/// What the probes of one test saw, from any thread.
final class ProbeLog: Sendable {
    private struct State {
        var threads: [Int: Set<ObjectIdentifier>] = [:]
        var released: Set<Int> = []
    }
    private let state = Mutex(State())

    func used(_ id: Int) {
        let thread = ObjectIdentifier(Thread.current)
        state.withLock { _ = $0.threads[id, default: []].insert(thread) }
    }
    func released(_ id: Int) { state.withLock { _ = $0.released.insert(id) } }

    /// The threads that used each probe.
    var threads: [Int: Set<ObjectIdentifier>] { state.withLock { $0.threads } }
    var released: Set<Int> { state.withLock { $0.released } }
}

/// A job that blocks its thread until opened, and says when it has started.
final class Gate: Sendable {
    private let opened = DispatchSemaphore(value: 0)
    private let startedFlag = Atomic(false)

    var started: Bool { startedFlag.load(ordering: .acquiring) }

    /// Call on the pool's thread: marks the start and blocks until ``open()``.
    func block() {
        startedFlag.store(true, ordering: .releasing)
        opened.wait()
    }

    func open() { opened.signal() }
}

/// An error a job throws on purpose.
struct GiveUp: Error, CustomStringConvertible {
    let description: String
}

/// A count shared by jobs on any thread.
final class Tally: Sendable {
    private let count = Atomic(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// Values appended by jobs on any thread, in the order they came.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}
