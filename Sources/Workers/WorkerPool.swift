import Dispatch
import Foundation

/// A fixed set of threads for blocking work (database calls, Argon2id, SMTP conversations), each
/// owning one `Resource` for its whole life, taking jobs in arrival order from one bounded queue.
///
/// Swift's cooperative pool has a thread per core: a call that blocks there for milliseconds
/// stalls every task. A caller of ``run(_:)`` suspends instead while a pool thread does the work.
/// At most ``queueLimit`` jobs wait for a thread; one more is refused at once, without running,
/// so a flood grows neither memory nor waiting time without end. What a refusal looks like is
/// the pool owner's choice, made once at ``init(name:resources:queueLimit:stackSize:background:refusal:)``:
/// a 503 for password hashing, `StoreError.unavailable` for a store, a mail tried again later.
///
/// ```swift
/// let hashing = WorkerPool(name: "argon2", threads: 2, queueLimit: 512)
/// let phc = try await hashing.run { _ in try hasher.hash(password) }
///
/// let writer = WorkerPool(name: "sqlite-writer", resources: [connection], queueLimit: 16_384)
/// let count = try await writer.run { connection in try connection.userCount() }
/// ```
public final class WorkerPool<Resource>: Sendable {
    /// Threads, one per resource.
    public let threadCount: Int
    private let queue: JobQueue<Resource>
    private let refusal: @Sendable (WorkerPoolError) -> any Error
    private let finished = DispatchGroup()

    /// Starts one thread per resource; from now on each resource is used only by its thread, and
    /// released when the thread ends (a connection closes then).
    ///
    /// - Parameters:
    ///   - name: the threads' name (`name-0`, `name-1`, … when there are several), where the
    ///     platform shows it.
    ///   - resources: what each thread owns; at least one.
    ///   - queueLimit: jobs that may wait for a thread (at least 1: a job waits a moment even for
    ///     an idle thread); one more is refused.
    ///   - stackSize: bytes of stack per thread; the system's default when `nil`.
    ///   - background: run the threads at a lower scheduling priority (Linux `nice` 10), for long
    ///     CPU-bound work (Argon2id) that should yield the cores to request threads when both
    ///     want them, and take whatever is idle otherwise.
    ///   - refusal: the error ``run(_:)`` throws for a job the pool refuses; by default the
    ///     ``WorkerPoolError`` itself.
    public init(
        name: String, resources: [Resource], queueLimit: Int, stackSize: Int? = nil, background: Bool = false,
        refusal: @escaping @Sendable (WorkerPoolError) -> any Error = { $0 }
    ) {
        precondition(!resources.isEmpty, "a worker pool needs at least one thread")
        threadCount = resources.count
        queue = JobQueue(limit: queueLimit)
        self.refusal = refusal
        for (index, resource) in resources.enumerated() {
            let owner = Owner(resource)
            let queue = queue
            let finished = finished
            let threadName = resources.count == 1 ? name : "\(name)-\(index)"
            finished.enter()
            // The thread holds the queue, not the pool, so dropping the pool stops it (`deinit`).
            let thread = Thread {
                if background { ThreadPriority.lowerCallingThread() }
                // The resource is released when `serve` returns: before `stopAndWait()` hears
                // that this thread is done.
                Self.serve(queue, with: owner.take())
                finished.leave()
            }
            // Shown by Darwin's tools; Foundation on Linux drops a name given before `start()`.
            thread.name = threadName
            if let stackSize { thread.stackSize = stackSize }
            thread.start()
        }
    }

    deinit {
        stop()
    }

    /// Jobs that may wait for a thread.
    public var queueLimit: Int { queue.limit }

    /// Jobs waiting for a thread now (for metrics).
    public var queueLength: Int { queue.waiting }

    /// Runs `work` on one of the threads with its resource and returns its result, or rethrows its
    /// error.
    ///
    /// - Throws: whatever `work` throws; the pool's refusal error, without running `work`, when
    ///   ``queueLimit`` jobs already wait or the pool was stopped before a thread took the job.
    public func run<T: Sendable>(_ work: @escaping @Sendable (Resource) throws -> T) async throws -> T {
        let refusal = refusal
        return try await withCheckedThrowingContinuation { continuation in
            let job = JobQueue<Resource>.Job(
                run: { resource in continuation.resume(with: Result { try work(resource) }) },
                refuse: { continuation.resume(throwing: refusal($0)) })
            if let refused = queue.enqueue(job) { continuation.resume(throwing: refusal(refused)) }
        }
    }

    /// Stops taking work and refuses what still waits; jobs already running finish, then the
    /// threads end on their own and release their resources. Safe to call twice.
    public func stop() {
        for job in queue.stop() { job.refuse(.stopped) }
    }

    /// Stops, then waits until every thread has finished its job and released its resource.
    public func stopAndWait() async {
        stop()
        await withCheckedContinuation { continuation in
            finished.notify(queue: .global()) { continuation.resume() }
        }
    }

    private static func serve(_ queue: JobQueue<Resource>, with resource: Resource) {
        while let job = queue.next() { job.run(resource) }
    }
}

extension WorkerPool where Resource == Void {
    /// Starts `threads` threads (at least one) that own nothing, for work that needs no
    /// connection (a hash, a blocking network call); see
    /// ``init(name:resources:queueLimit:stackSize:background:refusal:)``.
    public convenience init(
        name: String, threads: Int, queueLimit: Int, stackSize: Int? = nil, background: Bool = false,
        refusal: @escaping @Sendable (WorkerPoolError) -> any Error = { $0 }
    ) {
        self.init(
            name: name, resources: Array(repeating: (), count: max(1, threads)), queueLimit: queueLimit,
            stackSize: stackSize, background: background, refusal: refusal)
    }
}

/// Carries a resource into the thread that will own it.
private final class Owner<Resource>: @unchecked Sendable {
    // Written once here and taken once by the owning thread, which `Thread.start()` orders after.
    private var resource: Resource?
    init(_ resource: Resource) { self.resource = resource }

    /// Hands the resource over, keeping no reference.
    func take() -> Resource {
        defer { resource = nil }
        return resource!  // taken exactly once, by the thread it was made for
    }
}
