import Foundation

/// Runs blocking `work` (a socket read, `waitpid`) on a new thread of its own and resumes with its
/// result.
///
/// Not on the cooperative pool, which runs the tests and the in-process servers' handlers, and not
/// on a dispatch queue either: on Linux the global queues and the cooperative pool share their few
/// threads, and a handful of blocked reads starved handlers.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
