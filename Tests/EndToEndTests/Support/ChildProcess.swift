import Foundation
import TestSupport
import Testing

/// A running `account-server` process with its output captured; killed with SIGKILL if dropped
/// while still running, so a failed test never leaves a server behind.
final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    let standardOutput: OutputCapture
    let standardError: OutputCapture
    private let ended = ExitBox()

    /// Starts the server binary with `arguments`.
    init(arguments: [String], binary: URL) throws {
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
        standardError = OutputCapture(draining: err)
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
