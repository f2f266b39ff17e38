import Foundation

/// Threads that each own one database connection and take jobs from one shared queue: the
/// plumbing every blocking database backend (SQLite, libpq) needs.
///
/// Callers are Swift tasks: they hand work over and suspend on a continuation, so blocking
/// database calls never occupy the cooperative thread pool.
public final class ConnectionThreads<Connection: AnyObject>: Sendable {
    private let queue = JobQueue<Connection>()
    private let finished = DispatchGroup()
    private let prepare: @Sendable (Connection) throws -> Void

    /// Starts one thread per connection; each connection is used only by its thread from now on.
    /// `prepare` runs before every job on its connection (a backend reconnects there).
    public init(name: String, connections: [Connection], prepare: @escaping @Sendable (Connection) throws -> Void = { _ in }) {
        self.prepare = prepare
        for (index, connection) in connections.enumerated() {
            let owner = Owner<Connection>(connection)
            let queue = queue
            let finished = finished
            finished.enter()
            let thread = Thread {
                // The connection is released, and so closed, when `serve` returns: before
                // `stopAndWait()` hears that this thread is done.
                Self.serve(queue, with: owner.take())
                finished.leave()
            }
            thread.name = connections.count == 1 ? name : "\(name)-\(index)"
            thread.start()
        }
    }

    private static func serve(_ queue: JobQueue<Connection>, with connection: Connection) {
        while let job = queue.next() { job.run(connection) }
    }

    /// Runs `work` on one of the threads and returns its result or rethrows its error.
    public func perform<T: Sendable>(_ work: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        let prepare = prepare
        return try await withCheckedThrowingContinuation { continuation in
            let job = Job<Connection>(
                run: { connection in continuation.resume(with: Result { try prepare(connection); return try work(connection) }) },
                cancel: { continuation.resume(throwing: StoreError.unavailable(reason: "store is closed")) })
            if !queue.enqueue(job) { job.cancel() }
        }
    }

    /// Stops taking work, fails what is still queued, and lets the threads end on their own.
    public func stop() {
        for job in queue.close() { job.cancel() }
    }

    /// Stops, then waits until every thread has finished its job and closed its connection.
    public func stopAndWait() async {
        stop()
        await withCheckedContinuation { continuation in
            finished.notify(queue: .global()) { continuation.resume() }
        }
    }
}

/// Carries a connection into the thread that will own it.
private final class Owner<Connection: AnyObject>: @unchecked Sendable {
    // Touched only by the owning thread once it starts.
    private var connection: Connection?
    init(_ connection: Connection) { self.connection = connection }

    /// Hands the connection over, keeping no reference.
    func take() -> Connection {
        defer { connection = nil }
        return connection!  // taken exactly once, by the thread it was made for
    }
}
