#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The settings to put back if a signal ends the process while echo is off. Only touched on the
// main thread and read by the signal handler, which must not capture anything.
nonisolated(unsafe) private var settingsToRestore: termios?

/// Turns terminal echo off on standard input for the length of a call, and back on afterwards,
/// even when SIGINT, SIGTERM, SIGHUP or SIGQUIT ends the process meanwhile.
enum EchoGuard {
    /// Runs `body` with echo off; when standard input is not a terminal, just runs it.
    static func withoutEcho<T>(_ body: () -> T) -> T {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return body() }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        settingsToRestore = original
        installHandlers()
        // TCSANOW, not TCSAFLUSH: a line typed ahead of the prompt must not be thrown away.
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &original)
            settingsToRestore = nil
        }
        return body()
    }

    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    private static func installHandlers() {
        for number in signals {
            signal(number) { received in
                if var settings = settingsToRestore { tcsetattr(STDIN_FILENO, TCSANOW, &settings) }
                // Die of the same signal, so the parent sees the usual status.
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}
