/// How a child process ended: an exit code, or the signal that killed it.
///
/// An integer literal is a normal exit with that code, so `result.status == 0` reads as it should.
public struct ExitStatus: Equatable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The exit code, or the signal number when `signaled`.
    public let code: Int32
    public let signaled: Bool

    public init(code: Int32, signaled: Bool) {
        self.code = code
        self.signaled = signaled
    }

    public init(integerLiteral code: Int32) { self.init(code: code, signaled: false) }

    /// From a `waitpid` status word.
    init(waitStatus status: Int32) {
        // Exited normally: the code is in bits 8-15; else the low 7 bits name the signal.
        self = (status & 0x7f) == 0 ? ExitStatus(code: (status >> 8) & 0xff, signaled: false) : ExitStatus(code: status & 0x7f, signaled: true)
    }

    public var isSuccess: Bool { !signaled && code == 0 }
    public var description: String { signaled ? "killed by signal \(code)" : "exit status \(code)" }
}
