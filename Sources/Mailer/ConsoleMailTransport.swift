import Foundation

/// Prints each message, fully rendered, to standard output so a developer can read the code there.
///
/// The default with `--mail console`. Each message is written in one piece and flushed at once,
/// so messages from concurrent requests never interleave and show up even when stdout is a pipe.
public struct ConsoleMailTransport: MailTransport {
    private let sender: String
    private let now: @Sendable () -> Date
    private let output: @Sendable (String) -> Void

    /// Creates a transport printing to standard output as `sender`.
    public init(sender: String) {
        self.init(sender: sender, now: { Date() }, output: { text in
            print(text, terminator: "")
            // fflush(stdout) does not compile under Swift 6 (stdout is a shared global); nil flushes all.
            fflush(nil)
        })
    }

    /// Creates a transport that hands each printed message to `output` instead of stdout.
    /// - Parameters:
    ///   - now: the clock for the Date header.
    ///   - output: receives the text of ``transcript(of:from:date:messageID:)`` for each message.
    public init(
        sender: String, now: @escaping @Sendable () -> Date, output: @escaping @Sendable (String) -> Void
    ) {
        self.sender = sender
        self.now = now
        self.output = output
    }

    /// Renders and prints `message`.
    /// - Throws: ``MailError/invalidHeader(_:)`` when the message cannot be rendered safely.
    public func send(_ message: MailMessage) async throws {
        output(try Self.transcript(of: message, from: sender, date: now(), messageID: UUID().uuidString))
    }

    /// What the console shows for one message: a marker line with the recipient and the subject
    /// as people read it, the rendered message with terminal line ends, and an end marker.
    /// - Throws: ``MailError/invalidHeader(_:)`` like ``MailRenderer/render(_:from:date:messageID:)``.
    public static func transcript(
        of message: MailMessage, from sender: String, date: Date, messageID: String
    ) throws -> String {
        // Render first: it refuses control characters, which the marker line repeats unencoded.
        let rendered = try MailRenderer.render(message, from: sender, date: date, messageID: messageID)
        // The header section as sent, then only the plain-text part: the HTML alternative says the
        // same and would bury the code a developer is looking for.
        let head = rendered.components(separatedBy: "\r\n\r\n")[0]
        return "===== mail to \(message.to): \(message.subject) =====\n"
            + head.replacingOccurrences(of: "\r\n", with: "\n") + "\n\n"
            + MailRenderer.crlfBody(message.text).replacingOccurrences(of: "\r\n", with: "\n")
            + "===== end of mail =====\n"
    }
}
