import Foundation

/// Everything a child process wrote to one pipe, read on a thread of its own so the pipe never fills.
public final class OutputCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()
    private var finished = false
    private let gate = DispatchSemaphore(value: 0)

    /// Starts draining `pipe` until its writer closes it; when `held`, only after ``release()``
    /// (until then the pipe fills and stays full, as one nobody reads).
    init(draining pipe: Pipe, held: Bool = false) {
        let handle = pipe.fileHandleForReading
        // A thread of its own rather than a dispatch queue: the read blocks, and many servers run at once.
        let thread = Thread { [self] in
            if held { gate.wait() }
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { bytes.append(chunk) }
            }
            lock.withLock { finished = true }
        }
        thread.start()
    }

    /// Starts reading a pipe held at ``init(draining:held:)``.
    public func release() { gate.signal() }

    /// The text so far (invalid UTF-8 shown as replacement characters).
    public var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Whether the writer closed the pipe (the process and its children are gone).
    public var isFinished: Bool { lock.withLock { finished } }
}
