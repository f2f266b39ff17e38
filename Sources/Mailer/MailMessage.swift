/// A message to send: recipient, subject and a plain-text UTF-8 body.
///
/// ```swift
/// let message = MailMessage(to: "mina@example.com", subject: "Hello", text: "Hi Mina!\n")
/// ```
public struct MailMessage: Sendable, Equatable {
    /// The recipient's address, e.g. `mina@example.com`.
    public var to: String
    /// The subject line as people read it; the renderer encodes it for the wire.
    public var subject: String
    /// The plain-text body; any line ending (`\n`, `\r\n`, `\r`) is accepted.
    public var text: String

    /// Creates a message.
    public init(to: String, subject: String, text: String) {
        self.to = to
        self.subject = subject
        self.text = text
    }
}
