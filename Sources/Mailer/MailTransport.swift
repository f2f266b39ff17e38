/// Delivers rendered messages somewhere: standard output, a folder of `.eml` files, or an SMTP server.
///
/// A transport renders the message itself with ``MailRenderer`` so every destination sees the
/// same RFC 5322 text.
public protocol MailTransport: Sendable {
    /// Delivers one message.
    /// - Throws: ``MailError/invalidHeader(_:)`` for a message that cannot be rendered safely,
    ///   ``MailError/deliveryFailed(_:)`` when the destination refuses it.
    func send(_ message: MailMessage) async throws
}
