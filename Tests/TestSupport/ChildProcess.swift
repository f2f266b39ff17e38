import Foundation

/// A program running beside the test (a server, the SMTP sink) with both output streams
/// captured; killed with SIGKILL if dropped while still running, so a failed test never leaves
/// one behind.
public final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    public let standardOutput: OutputCapture
    public let standardError: OutputCapture
    private let ended = ExitBox()
    private let keyboard: Pipe?

    /// Starts `binary arguments` with the test's environment, minus its `ACCOUNT_*` variables
    /// (the server reads them as option twins: the test's own options must be all it gets), plus
    /// `environment`.
    /// With `input`, the program's standard input is a pipe the test writes to (``type(_:)``);
    /// otherwise it reads nothing. With `holdingStandardError`, its stderr is a pipe nobody reads
    /// until `standardError.release()`.
    public init(
        arguments: [String], binary: URL, environment extra: [String: String] = [:], input: Bool = false,
        holdingStandardError: Bool = false
    ) throws {
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ACCOUNT_") }
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        keyboard = input ? Pipe() : nil
        process.standardInput = keyboard ?? FileHandle.nullDevice
        standardOutput = OutputCapture(draining: out)
        if holdingStandardError {
            // The smallest pipe Linux makes (one page; F_SETPIPE_SZ), so little sits in it unread.
            _ = fcntl(err.fileHandleForWriting.fileDescriptor, 1031, 4096)
        }
        standardError = OutputCapture(draining: err, held: holdingStandardError)
        // The handler holds the box, not self, so dropping the process object still runs deinit.
        process.terminationHandler = { [ended] process in
            ended.set(ExitStatus(code: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal))
        }
        try launch(process)
    }

    public var pid: Int32 { process.processIdentifier }

    /// Whether the process has ended.
    public var hasExited: Bool { ended.status != nil }

    /// Both captured streams, for failure messages.
    public var transcript: String { "stdout:\n\(standardOutput.text)\nstderr:\n\(standardError.text)" }

    /// Writes `line` and a newline to the program's standard input (started with `input: true`).
    public func type(_ line: String) {
        keyboard?.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the process to end, at most `timeout` seconds; `nil` if it is still running.
    public func exitStatus(timeout: Double) async -> ExitStatus? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            if let status = ended.status { return status }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return ended.status
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// The exit status, set once by the termination handler.
private final class ExitBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: ExitStatus?

    var status: ExitStatus? { lock.withLock { value } }
    func set(_ status: ExitStatus) { lock.withLock { value = status } }
}
