import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input and output of the command: results on stdout, prompts and messages on stderr.
struct Console: Sendable {
    /// Whether standard input is a terminal (so passwords can be read without echo).
    let inputIsTerminal: Bool

    init() { inputIsTerminal = isatty(STDIN_FILENO) == 1 }

    /// Writes `text` and a newline to standard output.
    func out(_ text: String) { write(text + "\n", to: .standardOutput) }

    /// Writes `text` and a newline to standard error.
    func err(_ text: String) { write(text + "\n", to: .standardError) }

    /// Shows `prompt` on stderr and reads one line; `nil` at end of input.
    func ask(_ prompt: String) -> String? {
        write(prompt, to: .standardError)
        return Swift.readLine(strippingNewline: true)
    }

    /// Shows `prompt` and reads one line without echo when input is a terminal; `nil` at end of input.
    func askSecret(_ prompt: String) -> String? {
        let line = EchoGuard.withoutEcho { () -> String? in
            // The prompt goes out only once echo is off, so nothing typed after it is ever shown.
            write(prompt, to: .standardError)
            return Swift.readLine(strippingNewline: true)
        }
        // The user's Enter was not echoed either; end the prompt's line for them.
        if inputIsTerminal { write("\n", to: .standardError) }
        return line
    }

    /// Reads one line of standard input without a prompt (`--password-stdin`); `nil` at end of input.
    func readLine() -> String? { Swift.readLine(strippingNewline: true) }

    private func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
