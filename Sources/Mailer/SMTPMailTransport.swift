import Foundation
import Workers

/// Delivers each message to an SMTP server through libcurl (`--mail smtp://host:port` or
/// `smtps://user:password@host:465`).
///
/// `smtp://` upgrades to TLS with STARTTLS whenever the server offers it and otherwise goes on in
/// plain text (`CURLUSESSL_TRY`); `smtps://` speaks TLS from the first byte. Each send opens its
/// own connection on a thread of the transport's own, so a slow server never blocks Swift's
/// cooperative pool: at most ``conversations`` at once, and ``waitingLimit`` more messages
/// waiting for one; a send beyond that throws ``MailError/busy(_:)`` at once, sending nothing.
///
/// ```swift
/// let smtp = try SMTPMailTransport(url: URL(string: "smtp://mail.example:587")!,
///                                  sender: "MBTI Playground <no-reply@example.com>",
///                                  username: "mbti", password: secret)
/// try await smtp.send(message)
/// ```
public struct SMTPMailTransport: MailTransport, CustomStringConvertible {
    /// `smtp://host:port` or `smtps://host:port`, without user or password.
    public let server: String
    private let sender: String
    private let senderAddress: String
    private let credentials: (username: String, password: String)?
    private let timeout: TimeInterval
    private let now: @Sendable () -> Date
    /// A PEM file of certificates to trust instead of the system's (tests with a private CA).
    var trustedCAFile: String?

    /// Conversations with the server at once, each on a thread of its own.
    public static let conversations = 4
    /// Messages that may wait for a conversation; one more is refused with ``MailError/busy(_:)``.
    public static let waitingLimit = 64

    /// Threads for the blocking `curl_easy_perform` calls, away from the cooperative pool; shared
    /// by copies of this transport, ended when the last copy goes.
    let workers: WorkerPool<Void>

    /// Creates a transport for `url`, sending as `sender`.
    /// - Parameters:
    ///   - url: `smtp://[user[:password]@]host[:port]` or `smtps://…`; a user and password in the
    ///     URL are percent-decoded and used when `username` and `password` are `nil`.
    ///   - username: the AUTH user; no AUTH happens without one.
    ///   - timeout: seconds for the whole conversation, connecting included.
    /// - Throws: ``MailError/invalidConfiguration(_:)`` for another scheme, a missing host, or a
    ///   sender that is not an address.
    public init(
        url: URL, sender: String, username: String? = nil, password: String? = nil, timeout: TimeInterval = 10
    ) throws {
        try self.init(url: url, sender: sender, username: username, password: password, timeout: timeout,
                      now: { Date() })
    }

    /// Creates a transport whose Date headers come from `now`; see
    /// ``init(url:sender:username:password:timeout:)``.
    /// - Throws: ``MailError/invalidConfiguration(_:)`` as that initializer.
    public init(
        url: URL, sender: String, username: String?, password: String?, timeout: TimeInterval,
        now: @escaping @Sendable () -> Date
    ) throws {
        try self.init(
            url: url, sender: sender, username: username, password: password, timeout: timeout, now: now,
            conversations: Self.conversations, waitingLimit: Self.waitingLimit)
    }

    /// The designated initializer, with the bound (tests make it small).
    init(
        url: URL, sender: String, username: String?, password: String?, timeout: TimeInterval,
        now: @escaping @Sendable () -> Date, conversations: Int, waitingLimit: Int
    ) throws {
        try MailConfiguration.validate(sender: sender)
        let endpoint = try SMTPEndpoint(url: url)
        self.server = endpoint.server
        self.sender = sender
        self.senderAddress = try Mailbox(parsing: sender, header: "From").address
        let user = username ?? endpoint.username
        self.credentials = user.map { ($0, password ?? endpoint.password ?? "") }
        self.timeout = timeout
        self.now = now
        let server = endpoint.server
        workers = WorkerPool(name: "smtp", threads: conversations, queueLimit: waitingLimit) { refusal in
            switch refusal {
            case .full: MailError.busy("\(server): \(waitingLimit) messages already wait for a connection; not sent")
            case .stopped: MailError.busy("\(server): the transport was released; not sent")
            }
        }
    }

    /// The server, never the credentials, so logging a transport cannot leak a password.
    public var description: String { "SMTPMailTransport(\(server))" }

    /// Renders `message` and hands it to the server for its recipient.
    /// - Throws: ``MailError/invalidHeader(_:)`` before any network traffic for a message that
    ///   cannot be rendered safely; ``MailError/busy(_:)``, also before any traffic, when
    ///   ``waitingLimit`` messages already wait for a conversation; ``MailError/deliveryFailed(_:)``
    ///   with libcurl's reason and the server's last reply code when the connection, TLS, AUTH or
    ///   any command fails.
    public func send(_ message: MailMessage) async throws {
        let text = try MailRenderer.render(
            message, from: sender, date: now(), messageID: UUID().uuidString.lowercased())
        let recipient = try Mailbox(parsing: message.to, header: "To").address
        let transfer = SMTPTransfer(
            server: server, from: senderAddress, to: recipient, body: Array(text.utf8),
            credentials: credentials, timeout: timeout, caFile: trustedCAFile)
        try await workers.run { _ in try transfer.run() }
    }
}
