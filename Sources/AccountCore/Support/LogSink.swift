import Dispatch
import Foundation
import Synchronization

/// Log lines on their way to a file descriptor (standard error): a bounded buffer that request
/// threads copy whole lines into, and one thread of its own that writes them out.
///
/// Nothing that appends ever waits for the descriptor. The writer wakes when a line arrives in an
/// empty buffer and writes ``flushInterval`` later, or at once when ``flushSize`` bytes wait; while
/// it is inside `write(2)`, lines keep arriving in the free part of the buffer. When the descriptor
/// takes lines slower than they come (a pipe nobody reads, a slow disk) and the buffer is full,
/// lines are dropped and counted, never queued without bound:
///
/// - **Access lines are shed first.** An ``Kind/access`` line (one a request) is taken only while
///   ``reserve`` bytes stay free after it; an ``Kind/event`` line (security events, server errors,
///   warnings) may fill the whole buffer. So events are dropped only when even the reserve is full,
///   and then they are counted apart (``Counts/eventsDropped``).
/// - **One warning when writing resumes.** After drops, the first write that succeeds is followed
///   by a `log_lines_dropped` warning line saying how many lines (and events) were dropped since
///   the previous one; while drops go on, at most one such line a second (drops left out of one
///   are reported when the second is over, even if no other line comes).
///
/// Lines keep the order they were taken in. On a pipe, socket or terminal each `write(2)` holds
/// whole lines and at most `PIPE_BUF` bytes, so another writer of the same pipe (standard output
/// sent to it too) never splits a line; on a regular file everything waiting goes in one call.
///
/// ```swift
/// let sink = LogSink(fileDescriptor: 2)
/// line.withUnsafeBytes { sink.append($0, .access) }
/// sink.drain()   // before the process exits
/// ```
package final class LogSink: @unchecked Sendable {
    /// Which lines give way first when the buffer fills.
    package enum Kind: Sendable {
        /// A request's line: taken only while the reserve stays free.
        case access
        /// Anything else (security events, server errors, warnings): may use the reserve.
        case event
    }

    /// Lines dropped since the sink was made.
    package struct Counts: Sendable, Equatable {
        /// Lines dropped, of either kind (or lost to a failed write).
        package var dropped = 0
        /// The event lines among ``dropped``.
        package var eventsDropped = 0
    }

    /// Bytes the buffer holds at most.
    package let capacity: Int
    /// Bytes an access line must leave free.
    package let reserve: Int
    /// Bytes waiting that make the writer write at once.
    package let flushSize: Int
    /// How long after a line arrives in an empty buffer it is written at the latest (when the
    /// descriptor takes it).
    package let flushInterval: Duration

    private let descriptor: Int32
    private let isRegularFile: Bool
    private let storage: UnsafeMutableRawPointer
    private let state = Mutex(State())
    // Signalled when a line arrives in an empty buffer or the buffer reaches `flushSize`, and by
    // `drain` and `close`; the writer sleeps on it.
    private let wake = DispatchSemaphore(value: 0)
    private let writerEnded = DispatchSemaphore(value: 0)

    private struct State {
        /// Offset of the oldest byte not yet written.
        package var head = 0
        /// Bytes taken and not yet written (including those inside a `write(2)`).
        package var held = 0
        /// Bytes ever taken, and ever written (or given up after a failed write).
        package var taken: UInt64 = 0
        package var done: UInt64 = 0
        package var counts = Counts()
        /// What the last `log_lines_dropped` line covered, and when it was taken.
        package var reported = Counts()
        package var reportedAt: ContinuousClock.Instant?
        package var flushRequested = false
        package var stopping = false
        package var writerStarted = false
    }

    /// A sink writing to `fileDescriptor`; its thread starts with the first line.
    /// - Parameters:
    ///   - capacity: bytes held at most (default 4 MiB: some 20,000 access lines, 200 ms of them at
    ///     100,000 requests a second, enough to ride out a file write held up by the kernel's
    ///     write-back).
    ///   - reserve: bytes only event lines may use (default a quarter of `capacity`).
    ///   - flushSize: bytes that make the writer write at once (default 64 KiB, at most `reserve`).
    ///   - flushInterval: the longest a line waits for the writer (default 5 ms).
    package init(
        fileDescriptor: Int32, capacity: Int = 4 << 20, reserve: Int? = nil, flushSize: Int? = nil,
        flushInterval: Duration = .milliseconds(5)
    ) {
        precondition(capacity >= 1024, "a log buffer holds at least a few lines")
        self.descriptor = fileDescriptor
        self.capacity = capacity
        self.reserve = min(capacity / 2, reserve ?? capacity / 4)
        self.flushSize = max(1, min(flushSize ?? 64 << 10, self.reserve))
        self.flushInterval = flushInterval
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        var status = stat()
        isRegularFile = fstat(fileDescriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    deinit { storage.deallocate() }

    /// Lines dropped so far.
    package var counts: Counts { state.withLock { $0.counts } }

    /// Bytes held now, not yet written.
    package var buffered: Int { state.withLock { $0.held } }

    /// Copies one whole line (ending with a line feed) into the buffer, or drops and counts it when
    /// there is no room for its kind; never waits for the descriptor. Returns whether it was taken.
    @discardableResult
    package func append(_ line: UnsafeRawBufferPointer, _ kind: Kind) -> Bool {
        take(line, kind, countingDrop: true)
    }

    /// Waits until every line taken before the call has been written, as long as the descriptor
    /// keeps taking bytes: it gives up when the descriptor took nothing for `patience` (a reader
    /// that stopped reading). Returns whether everything was written.
    @discardableResult
    package func drain(patience: Duration = .seconds(5)) -> Bool {
        let (target, pending) = state.withLock { state in
            if state.done < state.taken { state.flushRequested = true }
            return (state.taken, state.done < state.taken)
        }
        guard pending else { return true }
        wake.signal()
        var done = state.withLock { $0.done }
        var lastProgress = ContinuousClock.now
        while done < target {
            usleep(1000)
            let now = state.withLock { $0.done }
            if now > done {
                (done, lastProgress) = (now, .now)
            } else if ContinuousClock.now - lastProgress >= patience {
                return false
            }
        }
        return true
    }

    /// Drains (see ``drain(patience:)``), then ends the writer thread; later lines are dropped.
    /// Returns whether everything taken was written.
    @discardableResult
    package func close(patience: Duration = .seconds(5)) -> Bool {
        let drained = drain(patience: patience)
        let started = state.withLock { state in
            state.stopping = true
            return state.writerStarted
        }
        if started {
            wake.signal()
            _ = writerEnded.wait(timeout: .now() + Self.dispatchInterval(patience))
        }
        return drained
    }

    // MARK: - Taking lines

    private func take(_ line: UnsafeRawBufferPointer, _ kind: Kind, countingDrop: Bool) -> Bool {
        let (taken, signal, start) = state.withLock { state -> (Bool, Bool, Bool) in
            let limit = kind == .access ? capacity - reserve : capacity
            // The sink's own warning is still taken while closing: the writer writes it before it ends.
            guard !state.stopping || !countingDrop, state.held + line.count <= limit else {
                if countingDrop {
                    state.counts.dropped += 1
                    if kind == .event { state.counts.eventsDropped += 1 }
                }
                return (false, false, false)
            }
            copy(line, to: (state.head + state.held) % capacity)
            let before = state.held
            state.held += line.count
            state.taken += UInt64(line.count)
            let start = !state.writerStarted
            state.writerStarted = true
            return (true, before == 0 || (before < flushSize && state.held >= flushSize), start)
        }
        if start { startWriter() }
        if signal { wake.signal() }
        return taken
    }

    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// Copies `line` into the ring at `offset`, wrapping at its end.
    private func copy(_ line: UnsafeRawBufferPointer, to offset: Int) {
        guard let base = line.baseAddress else { return }
        let first = min(line.count, capacity - offset)
        (storage + offset).copyMemory(from: base, byteCount: first)
        if first < line.count { storage.copyMemory(from: base + first, byteCount: line.count - first) }
    }

    // MARK: - The writer thread

    private func startWriter() {
        let thread = Thread { [self] in
            // SIGPIPE blocked on this thread only: a reader gone makes write(2) fail with EPIPE
            // (the lines are counted as dropped) instead of ending the server.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            var wrote = false
            while let work = nextWork(mayReport: wrote) {
                switch work {
                case .write(let start, let count):
                    wrote = write(from: start, count: count)
                    if wrote { reportDrops() }
                case .reportDrops:
                    reportDrops()
                }
            }
            writerEnded.signal()
        }
        thread.name = "log-writer"
        thread.start()
    }

    private enum Work {
        case write(start: Int, count: Int), reportDrops
    }

    private enum Step {
        case work(Work), wait, idle(reportIn: Duration?), stop
    }

    /// Sleeps until there is something to write and it is time to: `flushInterval` after the first
    /// line, `flushSize` bytes, a drain or the end. With nothing to write, drops not yet reported
    /// and the last write a success (`mayReport`), it wakes when their warning is due.
    /// `nil` at the end, once everything is written.
    private func nextWork(mayReport: Bool) -> Work? {
        var deadline: DispatchTime?
        while true {
            let now = DispatchTime.now()
            let step = state.withLock { state -> Step in
                guard state.held > 0 else {
                    if state.stopping { return .stop }
                    guard mayReport, state.counts.dropped > state.reported.dropped else { return .idle(reportIn: nil) }
                    let since = state.reportedAt.map { ContinuousClock.now - $0 } ?? Self.reportInterval
                    return .idle(reportIn: max(.zero, Self.reportInterval - since))
                }
                let due = deadline.map { now >= $0 } ?? false
                guard due || state.flushRequested || state.stopping || state.held >= flushSize else { return .wait }
                state.flushRequested = false
                return .work(.write(start: state.head, count: state.held))
            }
            switch step {
            case .work(let work): return work
            case .stop: return nil
            case .idle(nil):
                wake.wait()
                deadline = nil
            case .idle(let reportIn?):
                if wake.wait(timeout: now + Self.dispatchInterval(reportIn)) == .timedOut { return .reportDrops }
                deadline = nil
            case .wait:
                let due = deadline ?? now + Self.dispatchInterval(flushInterval)
                deadline = due
                _ = wake.wait(timeout: due)
            }
        }
    }

    /// Writes `count` bytes from ring offset `start`, freeing their room as each call returns.
    /// Returns whether they were written; after a failure (not an interruption) they are given up
    /// and their lines counted as dropped.
    private func write(from start: Int, count: Int) -> Bool {
        var (start, remaining) = (start, count)
        while remaining > 0 {
            let chunk = chunkLength(from: start, remaining: remaining)
            let first = min(chunk, capacity - start)
            var vectors = (
                iovec(iov_base: storage + start, iov_len: first), iovec(iov_base: storage, iov_len: chunk - first)
            )
            let written = withUnsafeMutablePointer(to: &vectors) {
                $0.withMemoryRebound(to: iovec.self, capacity: 2) { writev(descriptor, $0, chunk > first ? 2 : 1) }
            }
            if written > 0 {
                release(written, droppedLines: 0)
                (start, remaining) = ((start + written) % capacity, remaining - written)
            } else if written < 0, errno == EINTR {
                continue
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                // A descriptor someone made non-blocking: wait until it takes bytes again.
                var wanted = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&wanted, 1, 100)
            } else {
                release(remaining, droppedLines: lineCount(from: start, count: remaining))
                return false
            }
        }
        return true
    }

    /// How many bytes from `start` one `write(2)` takes: everything on a regular file; elsewhere
    /// whole lines of at most `PIPE_BUF` bytes together (a longer line alone).
    private func chunkLength(from start: Int, remaining: Int) -> Int {
        let atomic = Int(PIPE_BUF)
        guard !isRegularFile, remaining > atomic else { return remaining }
        for length in stride(from: atomic, through: 1, by: -1) where byte(at: start + length - 1) == 0x0A {
            return length
        }
        for length in (atomic + 1)...remaining where byte(at: start + length - 1) == 0x0A {
            return length
        }
        return remaining
    }

    private func byte(at offset: Int) -> UInt8 {
        storage.load(fromByteOffset: offset % capacity, as: UInt8.self)
    }

    private func lineCount(from start: Int, count: Int) -> Int {
        (0..<count).reduce(0) { lines, index in byte(at: start + index) == 0x0A ? lines + 1 : lines }
    }

    /// Frees `count` written (or given up) bytes at the head.
    private func release(_ count: Int, droppedLines: Int) {
        state.withLock { state in
            state.head = (state.head + count) % capacity
            state.held -= count
            state.done += UInt64(count)
            state.counts.dropped += droppedLines
        }
    }

    /// After a write that succeeded: one `log_lines_dropped` warning for the drops since the last
    /// one, unless one was written less than a second ago.
    private static let reportInterval = Duration.seconds(1)

    private func reportDrops() {
        let now = ContinuousClock.now
        let due = state.withLock { state -> (Counts, Counts)? in
            guard state.counts.dropped > state.reported.dropped else { return nil }
            if let last = state.reportedAt, now - last < Self.reportInterval { return nil }
            return (state.counts, state.reported)
        }
        guard let (counts, reported) = due else { return }
        var line = LogLine(event: "log_lines_dropped")
        line.field("level", "warning")
        line.field("dropped", digitsOf: counts.dropped - reported.dropped)
        line.field("events_dropped", digitsOf: counts.eventsDropped - reported.eventsDropped)
        line.field("detail", "standard error did not take log lines as fast as they came; these were dropped")
        let written = line.withBytes { take($0, .event, countingDrop: false) }
        // Not taken (the buffer still full): the next write that succeeds tries again.
        guard written else { return }
        state.withLock { state in
            state.reported = counts
            state.reportedAt = now
        }
    }
}
