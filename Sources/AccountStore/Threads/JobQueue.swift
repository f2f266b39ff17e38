import Foundation

/// Work for a connection thread: `run` with the thread's connection, or `cancel` if the store
/// closes before a thread takes it. Exactly one of the two is called.
struct Job<Connection>: Sendable {
    let run: @Sendable (Connection) -> Void
    let cancel: @Sendable () -> Void
}

/// A first-in, first-out queue of jobs that connection threads block on.
final class JobQueue<Connection>: @unchecked Sendable {
    // State guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [Job<Connection>] = []
    private var head = 0
    private var isClosed = false

    /// Adds a job; returns `false` (and keeps nothing) once the queue is closed.
    func enqueue(_ job: Job<Connection>) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// Blocks until a job is there and returns it; `nil` once the queue is closed.
    func next() -> Job<Connection>? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !isClosed { condition.wait() }
        guard !isClosed else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 256 {
            // Drop taken jobs now and then so the array does not grow without bound.
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    /// Closes the queue, wakes every waiting thread, and returns the jobs no thread took.
    func close() -> [Job<Connection>] {
        condition.lock()
        defer { condition.unlock() }
        isClosed = true
        let pending = Array(jobs[head...])
        jobs.removeAll()
        head = 0
        condition.broadcast()
        return pending
    }
}
