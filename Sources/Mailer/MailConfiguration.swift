import Foundation

/// Reads the `--mail` option and builds the matching ``MailTransport``.
///
/// ```swift
/// let mailer = try MailConfiguration.transport(
///     for: "file:///var/mail/mbti", sender: "MBTI Playground <no-reply@example.com>")
/// ```
public enum MailConfiguration {
    /// Builds the transport for `option`: `console`, `file:///abs/dir` or `file:relative/dir`.
    /// - Throws: ``MailError/invalidConfiguration(_:)`` for any other value, a sender that is
    ///   not an address, or a folder that cannot be created.
    public static func transport(for option: String, sender: String) throws -> any MailTransport {
        try validate(sender: sender)
        switch try destination(for: option) {
        case .console: return ConsoleMailTransport(sender: sender)
        case .directory(let folder): return try FileMailTransport(directory: folder, sender: sender)
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
            throw MailError.invalidConfiguration(
                "mail delivery over SMTP (\(option)) is not supported yet; "
                    + "use --mail console or --mail file:///path/to/folder")
        }
        throw MailError.invalidConfiguration(
            "unknown --mail value \"\(option)\": use console, file:///absolute/folder or file:relative/folder")
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
