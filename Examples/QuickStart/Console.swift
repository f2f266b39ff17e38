import Foundation

/// Lines out and codes in, for a person at a terminal or a test driving the program.
///
/// Lines go to standard output unbuffered, so a reader sees each prompt before the program waits.
struct Console: Sendable {
    /// Writes one line.
    func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Asks for the code mailed to `email` (the server's console or mail folder has it).
    func askCode(for email: String) throws -> String {
        say("code for \(email)?")
        guard let line = readLine(), !line.isEmpty else { throw QuickStart.Failure("no code was typed") }
        return line.trimmingCharacters(in: .whitespaces)
    }
}
