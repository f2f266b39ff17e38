import Foundation

/// Reads the `--mail` option and builds the matching ``MailTransport``.
///
/// ```swift
/// let mailer = try MailConfiguration.transport(
///     for: "file:///var/mail/mbti", sender: "MBTI Playground <no-reply@example.com>")
/// ```
public enum MailConfiguration {
    /// Builds the transport for `option`: `console`, `file:///abs/dir`, `file:relative/dir`,
    /// `smtp://[user[:password]@]host[:port]` or `smtps://…`.
    ///
    /// For SMTP without a user in the URL, `ACCOUNT_MAIL_USER` and `ACCOUNT_MAIL_PASSWORD` from
    /// `environment` supply the credentials, so the password need not appear on a command line.
    /// - Throws: ``MailError/invalidConfiguration(_:)`` for any other value, a sender that is
    ///   not an address, or a folder that cannot be created.
    public static func transport(
        for option: String, sender: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> any MailTransport {
        try validate(sender: sender)
        switch try destination(for: option) {
        case .console: return ConsoleMailTransport(sender: sender)
        case .directory(let folder): return try FileMailTransport(directory: folder, sender: sender)
        case .smtp(let url):
            let fromURL = try SMTPEndpoint(url: url)
            let username = fromURL.username ?? environment["ACCOUNT_MAIL_USER"].flatMap { $0.isEmpty ? nil : $0 }
            let password = fromURL.password ?? environment["ACCOUNT_MAIL_PASSWORD"]
            return try SMTPMailTransport(url: url, sender: sender, username: username, password: password)
        }
    }

    /// Parses `option` without touching the file system; relative folders resolve against the
    /// current directory.
    /// - Throws: ``MailError/invalidConfiguration(_:)`` with what to write instead.
    public static func destination(for option: String) throws -> MailDestination {
        let option = option.trimmingCharacters(in: .whitespaces)
        let lowered = option.lowercased()
        if lowered == "console" { return .console }
        if lowered.hasPrefix("file:") { return .directory(try folder(fromFileOption: option)) }
        if lowered.hasPrefix("smtp://") || lowered.hasPrefix("smtps://") {
            // Checked here so a bad URL stops the server at start, not at the first mail.
            guard let url = URL(string: option) else {
                throw MailError.invalidConfiguration(
                    "the SMTP mail URL is not a valid URL: percent-encode special characters in the user "
                        + "and password (smtp://[user[:password]@]host[:port] or smtps://…)")
            }
            _ = try SMTPEndpoint(url: url)
            return .smtp(url)
        }
        // A mistyped URL with user information may hold a password: never repeat that one.
        let shown = option.contains("@") ? "" : " \"\(option)\""
        throw MailError.invalidConfiguration(
            "unknown --mail value\(shown): use console, file:///absolute/folder, file:relative/folder, "
                + "smtp://host:port or smtps://user:password@host:port")
    }

    /// Throws ``MailError/invalidConfiguration(_:)`` unless `sender` is one plain address,
    /// optionally with a display name.
    static func validate(sender: String) throws {
        do {
            _ = try Mailbox(parsing: sender, header: "From")
        } catch {
            throw MailError.invalidConfiguration(
                "the mail sender \"\(sender)\" is not an address like no-reply@example.com "
                    + "or \"MBTI Playground <no-reply@example.com>\"")
        }
    }

    private static func folder(fromFileOption option: String) throws -> URL {
        var path = String(option.dropFirst("file:".count))
        if path.hasPrefix("//") {
            let authority = path.dropFirst(2).prefix { $0 != "/" }
            guard authority.isEmpty || authority.lowercased() == "localhost" else {
                throw MailError.invalidConfiguration(
                    "\(option) names the host \"\(authority)\"; "
                        + "write file:///absolute/folder (three slashes) or file:relative/folder")
            }
            path = String(path.dropFirst(2 + authority.count))
        }
        path = path.removingPercentEncoding ?? path
        guard !path.isEmpty else {
            throw MailError.invalidConfiguration("\(option) names no folder: write file:///absolute/folder")
        }
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }
}
