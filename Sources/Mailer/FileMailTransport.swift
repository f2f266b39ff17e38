import Foundation

/// Saves each message as an RFC 5322 `.eml` file in a folder (`--mail file:///dir`).
///
/// Files are named `<milliseconds since 1970, 13 digits>-<uuid>.eml`, so sorting the names
/// sorts the messages by time. Each file appears whole or not at all: it is written to a hidden
/// temporary file in the same folder, fsynced, then renamed into place.
public struct FileMailTransport: MailTransport {
    /// The folder the `.eml` files go to.
    public let directory: URL
    private let sender: String
    private let now: @Sendable () -> Date

    /// Creates a transport writing to `directory` (created if missing) as `sender`.
    /// - Throws: ``MailError/invalidConfiguration(_:)`` when the sender is not an address or
    ///   the folder cannot be created.
    public init(directory: URL, sender: String) throws {
        try self.init(directory: directory, sender: sender, now: { Date() })
    }

    /// Creates a transport whose Date headers and file names come from `now`.
    /// - Throws: ``MailError/invalidConfiguration(_:)`` as ``init(directory:sender:)``.
    public init(directory: URL, sender: String, now: @escaping @Sendable () -> Date) throws {
        try MailConfiguration.validate(sender: sender)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw MailError.invalidConfiguration(
                "cannot create the mail folder \(directory.path): \(error.localizedDescription)")
        }
        self.directory = directory
        self.sender = sender
        self.now = now
    }

    /// Renders `message` and saves it as a new `.eml` file.
    /// - Throws: ``MailError/invalidHeader(_:)`` for a message that cannot be rendered safely,
    ///   ``MailError/deliveryFailed(_:)`` when the file cannot be written.
    public func send(_ message: MailMessage) async throws {
        let date = now()
        let id = UUID().uuidString.lowercased()
        let text = try MailRenderer.render(message, from: sender, date: date, messageID: id)
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let stamp = String(millis)
        let name = String(repeating: "0", count: max(0, 13 - stamp.count)) + stamp + "-" + id + ".eml"
        try AtomicFile.save(Data(text.utf8), to: directory.appendingPathComponent(name))
    }
}
