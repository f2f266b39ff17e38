import Foundation
import TestSupport
import Testing

/// How a child process ended.
struct ExitStatus: Equatable, CustomStringConvertible {
    /// The exit code, or the signal number when `signaled`.
    let code: Int32
    let signaled: Bool

    var isSuccess: Bool { !signaled && code == 0 }
    var description: String { signaled ? "killed by signal \(code)" : "exit status \(code)" }
}

/// A running `account-server` process with its output captured; killed with SIGKILL if dropped
/// while still running, so a failed test never leaves a server behind.
final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    let standardOutput: OutputCapture
    let standardError: OutputCapture
    private let ended = ExitBox()

    /// Starts the server binary with `arguments`; with `holdingStandardError`, its stderr is a
    /// pipe nobody reads until `standardError.release()`.
    init(arguments: [String], binary: URL, holdingStandardError: Bool = false) throws {
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        // The server reads ACCOUNT_* as option twins; the test's own arguments must be all it gets.
        for name in environment.keys where name.hasPrefix("ACCOUNT_") { environment[name] = nil }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
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

    var pid: Int32 { process.processIdentifier }

    /// Whether the process has ended.
    var hasExited: Bool { ended.status != nil }

    /// Both captured streams, for failure messages.
    var transcript: String { "stdout:\n\(standardOutput.text)\nstderr:\n\(standardError.text)" }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the process to end, at most `timeout` seconds; `nil` if it is still running.
    func exitStatus(timeout: Double) async -> ExitStatus? {
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

/// Runs `account-server arguments` to its end (at most `timeout` seconds, then SIGKILL).
func runServerCommand(
    _ arguments: [String], timeout: Double = 15, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> (status: ExitStatus, stdout: String, stderr: String) {
    let child = try ChildProcess(arguments: arguments, binary: try ServerBinary.require(sourceLocation: sourceLocation))
    guard let status = await child.exitStatus(timeout: timeout) else {
        child.send(SIGKILL)
        Issue.record("account-server \(arguments.joined(separator: " ")) still running after \(timeout) s\n\(child.transcript)", sourceLocation: sourceLocation)
        return (ExitStatus(code: SIGKILL, signaled: true), child.standardOutput.text, child.standardError.text)
    }
    // The pipes close just after the exit; wait for the readers to see the end.
    for _ in 0..<100 where !(child.standardOutput.isFinished && child.standardError.isFinished) {
        try await Task.sleep(for: .milliseconds(10))
    }
    return (status, child.standardOutput.text, child.standardError.text)
}
