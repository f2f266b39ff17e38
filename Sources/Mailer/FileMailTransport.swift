import Foundation

/// Saves each message as an RFC 5322 `.eml` file in a folder (`--mail file:///dir`).
///
/// Files are named `<milliseconds since 1970, 13 digits>-<uuid>.eml`, so sorting the names
/// sorts the messages by time. Each file appears whole or not at all: it is written to a hidden
/// temporary file in the same folder, fsynced, then renamed into place. Messages hold codes, so
/// files are `0600` and folders this transport creates `0700`, whatever the umask; a folder that
/// already exists keeps its mode.
public struct FileMailTransport: MailTransport {
    /// The folder the `.eml` files go to.
    public let directory: URL
    private let sender: String
    private let now: @Sendable () -> Date

    /// Creates a transport writing to `directory` (created, `0700`, if missing) as `sender`.
    /// - Throws: ``MailError/invalidConfiguration(_:)`` when the sender is not an address or
    ///   the folder cannot be created.
    public init(directory: URL, sender: String) throws {
        try self.init(directory: directory, sender: sender, now: { Date() })
    }

    /// Creates a transport whose Date headers and file names come from `now`.
    /// - Throws: ``MailError/invalidConfiguration(_:)`` as ``init(directory:sender:)``.
    public init(directory: URL, sender: String, now: @escaping @Sendable () -> Date) throws {
        try MailConfiguration.validate(sender: sender)
        try Self.createPrivateFolder(directory.standardizedFileURL.path)
        self.directory = directory
        self.sender = sender
        self.now = now
    }

    /// Creates `path` and any missing folder above it, each `0700` whatever the umask.
    private static func createPrivateFolder(_ path: String) throws {
        var status = stat()
        if stat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw MailError.invalidConfiguration("cannot create the mail folder \(path): a file is in the way")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try createPrivateFolder(parent) }
        if mkdir(path, 0o700) == 0 {
            // The mode given to mkdir() passed through the umask; this one does not.
            guard chmod(path, 0o700) == 0 else {
                throw MailError.invalidConfiguration("cannot make the mail folder \(path) private: \(String(cString: strerror(errno)))")
            }
        } else if errno != EEXIST {  // EEXIST: another process made it meanwhile; its mode is theirs
            throw MailError.invalidConfiguration("cannot create the mail folder \(path): \(String(cString: strerror(errno)))")
        }
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
