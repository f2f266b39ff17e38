import Foundation

/// An `smtp://` or `smtps://` URL taken apart: the server to connect to and any credentials.
struct SMTPEndpoint: Equatable {
    /// `scheme://host[:port]`, with IPv6 hosts in brackets and no user information.
    var server: String
    /// The percent-decoded user from the URL, if any.
    var username: String?
    /// The percent-decoded password from the URL, if any.
    var password: String?

    /// Parses `url`.
    /// - Throws: ``MailError/invalidConfiguration(_:)`` for another scheme, no host, a path other
    ///   than `/`, a query or fragment, or a port outside 1–65535. The text never repeats the password.
    init(url: URL) throws {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = parts.scheme?.lowercased(), scheme == "smtp" || scheme == "smtps"
        else { throw Self.invalid("must start with smtp:// or smtps://") }
        guard let host = parts.host, !host.isEmpty else {
            throw Self.invalid("names no host: write \(parts.scheme ?? "smtp")://host:port")
        }
        guard parts.path.isEmpty || parts.path == "/", parts.query == nil, parts.fragment == nil else {
            throw Self.invalid("may only hold user, password, host and port")
        }
        var server = scheme + "://" + (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
        if let port = parts.port {
            guard (1...65535).contains(port) else { throw Self.invalid("has a port outside 1–65535") }
            server += ":\(port)"
        }
        guard host.allSatisfy({ $0.isASCII && !$0.isWhitespace && !"/@?#".contains($0) }) else {
            throw Self.invalid("has an unusable host")
        }
        self.server = server
        username = parts.percentEncodedUser.map { $0.removingPercentEncoding ?? $0 }
        password = parts.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 }
    }

    private static func invalid(_ problem: String) -> MailError {
        .invalidConfiguration("the SMTP mail URL \(problem) (smtp://[user[:password]@]host[:port] or smtps://…)")
    }
}
