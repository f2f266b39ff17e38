import Dispatch
import Synchronization

/// A pool's jobs in arrival order, at most `limit` of them waiting, with a semaphore that counts
/// them for the threads blocked in ``next()``.
final class JobQueue<Resource>: Sendable {
    /// Work for a thread: `run` with the thread's resource, or `refuse` when the pool stops before
    /// a thread took it. Exactly one of the two is called.
    struct Job: Sendable {
        let run: @Sendable (Resource) -> Void
        let refuse: @Sendable (WorkerPoolError) -> Void
    }

    private struct State {
        var jobs: [Job] = []
        /// Jobs before `head` were taken; they are dropped now and then, not one by one.
        var head = 0
        var stopped = false
        var waiting: Int { jobs.count - head }
    }

    let limit: Int
    private let state = Mutex(State())
    /// One signal per job added, and one per thread when the queue stops.
    private let available = DispatchSemaphore(value: 0)

    /// `limit` is at least 1: a job waits, however briefly, before even an idle thread takes it.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Jobs waiting for a thread.
    var waiting: Int { state.withLock { $0.waiting } }

    /// Adds `job` and returns `nil`, or returns why not (the job is not kept).
    func enqueue(_ job: Job) -> WorkerPoolError? {
        let refusal: WorkerPoolError? = state.withLock { state in
            if state.stopped { return .stopped }
            if state.waiting >= limit { return .full }
            state.jobs.append(job)
            return nil
        }
        if refusal == nil { available.signal() }
        return refusal
    }

    /// Blocks until a job is there and takes it; `nil` once the queue has stopped.
    func next() -> Job? {
        while true {
            available.wait()
            let (job, stopped): (Job?, Bool) = state.withLock { state in
                guard state.head < state.jobs.count else { return (nil, state.stopped) }
                let job = state.jobs[state.head]
                state.head += 1
                if state.head == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.head = 0
                } else if state.head >= 256 {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                return (job, false)
            }
            if let job { return job }
            // A signal of a job that `stop` took back: the flag is already set, so the loop ends.
            if stopped { return nil }
        }
    }

    /// Stops taking jobs, wakes `threads` threads for good, and returns the jobs none took; a
    /// second call returns nothing.
    func stop(threads: Int) -> [Job] {
        let pending: [Job]? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            let pending = Array(state.jobs[state.head...])
            state.jobs = []
            state.head = 0
            return pending
        }
        guard let pending else { return [] }
        for _ in 0..<threads { available.signal() }
        return pending
    }
}
