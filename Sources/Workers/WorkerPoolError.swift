/// Why a ``WorkerPool`` did not take a job. The work never ran.
public enum WorkerPoolError: Error, Equatable, Sendable {
    /// ``WorkerPool/queueLimit`` jobs already wait for a thread.
    case full
    /// The pool was stopped (see ``WorkerPool/stop()``).
    case stopped
}
