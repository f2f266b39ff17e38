import Foundation
import Synchronization
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program on a pseudo-terminal, as a person at a terminal would: the test reads what the
/// screen shows (echo included) and types answers.
///
/// util-linux `script -qfec CMD /dev/null` makes the terminal: it runs CMD with the terminal as its
/// standard input, output and error, copies what the test writes to the terminal's keyboard side,
/// and copies everything the terminal shows to its own standard output.
final class PseudoTerminal: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    private let keyboard: Pipe
    private let screen = Screen()
    /// How much of the screen earlier `waitFor` calls have consumed.
    private let cursor = Mutex(0)

    /// Starts `executable arguments` on a new terminal.
    init(executable: URL, arguments: [String], environment: [String: String]) throws {
        let command = ([executable.path] + arguments).map(Self.shellQuoted).joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", command, "/dev/null"]
        process.environment = environment
        // Close-on-exec, made while no other test starts a program: a program another test starts
        // meanwhile must not inherit the pipes (a copy of the display's write end would outlive `script`).
        let (keyboard, display) = withLaunchLock { (Self.privatePipe(), Self.privatePipe()) }
        self.keyboard = keyboard
        process.standardInput = keyboard
        process.standardOutput = display
        process.standardError = display
        display.fileHandleForReading.readabilityHandler = { [screen] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                screen.end()
            } else {
                screen.append(data)
            }
        }
        try launch(process)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Everything the terminal has shown so far.
    var transcript: String { String(decoding: screen.data, as: UTF8.self) }

    /// Waits until `text` appears after what earlier waits consumed, and consumes up to its end.
    func waitFor(_ text: String) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let shown = screen.data
            let start = cursor.withLock { $0 }
            if let range = shown[(shown.startIndex + start)...].firstRange(of: Data(text.utf8)) {
                cursor.withLock { $0 = range.upperBound - shown.startIndex }
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure(description: "the terminal never showed \(text.debugDescription); it shows:\n\(transcript)")
    }

    /// Types `line` and Enter.
    func type(_ line: String) {
        keyboard.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits for the program to end and everything it showed to arrive; returns its exit status.
    ///
    /// Once `script` has exited, all it showed is in the pipe already; the end of the pipe is not
    /// waited for, because the reading handler on Linux does not always report it (seen under
    /// load with several terminals at once): the screen counts as complete when it ended or has
    /// not grown for a moment.
    func exitStatus() async throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "the program is still running; the terminal shows:\n\(transcript)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        var shown = -1
        while !screen.hasEnded, screen.data.count != shown, ContinuousClock.now < deadline {
            shown = screen.data.count
            try await Task.sleep(for: .milliseconds(250))
        }
        return process.terminationStatus
    }

    /// A pipe whose two ends are closed in programs started later (the child gets its own copies,
    /// which `dup2` makes without the flag).
    private static func privatePipe() -> Pipe {
        let pipe = Pipe()
        for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        return pipe
    }

    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

/// What the terminal showed, shared between the pipe's handler and the test.
private final class Screen: Sendable {
    private let state = Mutex((data: Data(), ended: false))

    var data: Data { state.withLock { $0.data } }
    var hasEnded: Bool { state.withLock { $0.ended } }

    func append(_ more: Data) { state.withLock { $0.data.append(more) } }
    func end() { state.withLock { $0.ended = true } }
}
