import Foundation

/// A pool's jobs in arrival order, at most `limit` of them waiting, that its threads block on.
///
/// A lock with a condition variable (`NSCondition`, a pthread mutex and condvar), not
/// Synchronization's `Mutex`: a blocking queue needs a wait, which `Mutex` lacks, and on Linux
/// `Mutex` is a priority-inheritance futex that hands itself to each waiter in turn. With two
/// threads taking jobs from many callers, `Mutex` and a semaphore cost several times the CPU per
/// job of this queue.
final class JobQueue<Resource>: @unchecked Sendable {
    /// Work for a thread: `run` with the thread's resource, or `refuse` when the pool stops before
    /// a thread took it. Exactly one of the two is called.
    struct Job: Sendable {
        let run: @Sendable (Resource) -> Void
        let refuse: @Sendable (WorkerPoolError) -> Void
    }

    let limit: Int
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [Job] = []
    /// Jobs before `head` were taken; they are dropped now and then, not one by one.
    private var head = 0
    private var stopped = false

    /// `limit` is at least 1: a job waits, however briefly, before even an idle thread takes it.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Jobs waiting for a thread.
    var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count - head
    }

    /// Adds `job` and returns `nil`, or returns why not (the job is not kept).
    func enqueue(_ job: Job) -> WorkerPoolError? {
        condition.lock()
        defer { condition.unlock() }
        if stopped { return .stopped }
        if jobs.count - head >= limit { return .full }
        jobs.append(job)
        condition.signal()
        return nil
    }

    /// Blocks until a job is there and takes it; `nil` once the queue has stopped.
    func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !stopped { condition.wait() }
        guard !stopped else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 256 {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    /// Stops taking jobs, wakes every waiting thread for good, and returns the jobs none took; a
    /// second call returns nothing.
    func stop() -> [Job] {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return [] }
        stopped = true
        let pending = Array(jobs[head...])
        jobs = []
        head = 0
        condition.broadcast()
        return pending
    }
}
