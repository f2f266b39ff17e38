/// Why mail could not be configured, rendered or delivered.
public enum MailError: Error, Equatable {
    /// The `--mail` option or the sender address is unusable; the text says what to write instead.
    case invalidConfiguration(String)
    /// A header value would break the message (a line break or control character, an empty
    /// address); the text names the header.
    case invalidHeader(String)
    /// The destination did not take the message; the text says where and why.
    case deliveryFailed(String)
    /// So many messages already wait to be sent through this transport that it refused one more
    /// without trying; nothing was sent. The text names the server. Try again later.
    case busy(String)
}
