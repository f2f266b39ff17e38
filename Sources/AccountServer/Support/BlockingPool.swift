import Foundation
import Synchronization

/// A fixed set of threads for slow blocking work (Argon2id), with a bounded queue.
///
/// Swift concurrency's cooperative pool has one thread per core; a hash that runs there for 20 ms
/// stalls every request that needs no hashing. This pool keeps such work on threads of its own,
/// and refuses new work when `queueLimit` jobs already wait, so a flood cannot grow memory.
public final class BlockingPool: Sendable {
    /// Thrown when the queue is full.
    public struct Overloaded: Error {}

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var stopped = false
        var waiting: Int { jobs.count - head }
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)
    private let queueLimit: Int
    public let threadCount: Int

    /// Starts `threads` worker threads named `name`.
    public init(name: String, threads: Int, queueLimit: Int) {
        self.queueLimit = queueLimit
        self.threadCount = max(1, threads)
        for index in 0..<threadCount {
            let thread = Thread { [self] in self.workLoop() }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Jobs waiting for a thread (for metrics).
    public var queueLength: Int { state.withLock { $0.waiting } }

    /// Runs `work` on a pool thread and returns its result; throws ``Overloaded`` when full.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped, state.waiting < queueLimit else { return false }
                state.jobs.append {
                    continuation.resume(with: Result { try work() })
                }
                return true
            }
            if accepted { signal.signal() } else { continuation.resume(throwing: Overloaded()) }
        }
    }

    /// Lets the threads finish queued work and exit.
    public func stop() {
        state.withLock { $0.stopped = true }
        for _ in 0..<threadCount { signal.signal() }
    }

    private func workLoop() {
        while true {
            signal.wait()
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                guard state.head < state.jobs.count else { return nil }
                let job = state.jobs[state.head]
                state.head += 1
                if state.head > 64, state.head * 2 > state.jobs.count {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                return job
            }
            if let job { job() } else if state.withLock({ $0.stopped }) { return }
        }
    }
}
