import Foundation
import AccountStore

/// Threads that each own one connection and take jobs from one shared queue.
///
/// Callers are Swift tasks: they hand work over and suspend on a continuation, so blocking
/// libpq calls never occupy the cooperative thread pool.
final class ConnectionThreads: Sendable {
    private let queue = JobQueue()
    private let finished = DispatchGroup()

    /// Starts one thread per connection; each connection is used only by its thread from now on.
    init(name: String, connections: [PGConnection]) {
        for (index, connection) in connections.enumerated() {
            let owner = Owner(connection)
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

    private static func serve(_ queue: JobQueue, with connection: PGConnection) {
        while let job = queue.next() { job.run(connection) }
    }

    /// Runs `work` on one of the threads and returns its result or rethrows its error.
    func perform<T: Sendable>(_ work: @escaping @Sendable (PGConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job = Job(
                run: { connection in
                    // A connection lost during an earlier job comes back here, so service resumes by itself.
                    continuation.resume(with: Result { try connection.reconnectIfNeeded(); return try work(connection) })
                },
                cancel: { continuation.resume(throwing: StoreError.unavailable(reason: "store is closed")) })
            if !queue.enqueue(job) { job.cancel() }
        }
    }

    /// Stops taking work, fails what is still queued, and lets the threads end on their own.
    func stop() {
        for job in queue.close() { job.cancel() }
    }

    /// Stops, then waits until every thread has finished its job and closed its connection.
    func stopAndWait() async {
        stop()
        await withCheckedContinuation { continuation in
            finished.notify(queue: .global()) { continuation.resume() }
        }
    }
}

/// Carries a connection into the thread that will own it.
private final class Owner: @unchecked Sendable {
    // Touched only by the owning thread once it starts.
    private var connection: PGConnection?
    init(_ connection: PGConnection) { self.connection = connection }

    /// Hands the connection over, keeping no reference.
    func take() -> PGConnection {
        defer { connection = nil }
        return connection!  // taken exactly once, by the thread it was made for
    }
}
