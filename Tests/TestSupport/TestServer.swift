import AccountAPI
import Foundation
import Testing

/// One HTTP request as a test sends it: method, target (path and query, as on the request line),
/// header fields and body.
public struct TestRequest: Sendable {
    public var method: String
    /// The path with its query, `/auth/logout?scope=others`.
    public var target: String
    /// The header fields, each name once (a later one given for the same name in any letter case
    /// takes its place).
    public var fields: [Reply.Field]
    /// The body; `nil` when none is sent.
    public var body: Data?

    public init(method: String, target: String, fields: [Reply.Field] = [], body: Data? = nil) {
        self.method = method
        self.target = target
        self.fields = fields
        self.body = body
    }

    /// Sets a header field, replacing one of the same name in any letter case.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { $0.name.lowercased() == name.lowercased() }
        fields.append(Reply.Field(name: name, value: value))
    }

    /// The path without the query.
    public var path: String { String(target.prefix { $0 != "?" }) }

    /// The query's arguments as a server decodes them: `+` is a space, a repeated name keeps its
    /// first value.
    public var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var arguments: [String: String] = [:]
        for part in target[target.index(after: mark)...].split(separator: "&") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decoded(pair[0])
            if arguments[name] == nil { arguments[name] = pair.count > 1 ? decoded(pair[1]) : "" }
        }
        return arguments
    }
}

/// Whatever answers a ``TestRequest`` with a ``Reply``: a server under test, or a plain client
/// of one (``HTTPClient``). Every way a test sends a request comes from here.
public protocol RequestSender: Sendable {
    func send(_ request: TestRequest) async throws -> Reply
}

extension RequestSender {
    /// Sends a request; `json` (a dictionary or an array) becomes an `application/json` body,
    /// else `body` goes as it is with `contentType`. `token` is sent as `Authorization: Bearer`,
    /// and `headers` last, so they may replace either.
    @discardableResult
    public func send(
        _ method: String, _ path: String, json: Any? = nil, body: Data? = nil, contentType: String? = nil,
        token: String? = nil, headers: [String: String] = [:]
    ) async throws -> Reply {
        var request = TestRequest(method: method, target: path)
        if let json {
            request.body = try JSONSerialization.data(withJSONObject: json)
            request.set("Content-Type", "application/json")
        } else if let body {
            request.body = body
            if let contentType { request.set("Content-Type", contentType) }
        }
        if let token { request.set("Authorization", "Bearer \(token)") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.set(name, value) }
        return try await send(request)
    }

    /// Sends an `Encodable` wire model as JSON (snake_case keys come from its coding keys).
    @discardableResult
    public func send<Body: Encodable>(
        _ method: String, _ path: String, model: Body, token: String? = nil, headers: [String: String] = [:]
    ) async throws -> Reply {
        let data = try AccountJSON.makeEncoder().encode(model)
        return try await send(method, path, body: data, contentType: "application/json", token: token, headers: headers)
    }
}

/// A running account server as a test sees it, whichever way it runs: the app in the test
/// process (`InProcessServer`) or the real binary (``ServerProcess``). A scenario written against
/// it runs both ways; ``TestServer`` extensions (the account factory) work on either.
public protocol TestServer: RequestSender {
    /// Where clients reach it (the in-process transport answers any host).
    var baseURL: URL { get }
    /// The messages it mailed; every look at an in-process server's first delivers what is due.
    var mail: MailFolder { get }
    /// The clock it reads: standing still in the test process, the real time moved by an offset
    /// for the binary (see ``TestClock``).
    var clock: TestClock { get }
    /// Every table's row count, but the tables written at start (keys, settings, migrations) and
    /// the hourly counters, which the server adds to on a timer of its own.
    func rowCounts() async throws -> [String: Int]
    /// Gives the account named `username` the admin role, as `account-server admin grant` does.
    func grantAdmin(_ username: String) async throws
    /// Stops it: the binary is expected to exit cleanly (an issue at `sourceLocation` if not); an
    /// in-process app lets go of its files when the last reference goes. Call ``stop(sourceLocation:)``.
    func stopServer(sourceLocation: SourceLocation) async
}

extension TestServer {
    /// Stops the server (see ``stopServer(sourceLocation:)``).
    public func stop(sourceLocation: SourceLocation = #_sourceLocation) async {
        await stopServer(sourceLocation: sourceLocation)
    }

    /// Tables a running server writes without a request; ``rowCounts()`` leaves them out.
    public static var tablesWrittenWithoutRequests: Set<String> { ["signing_keys", "settings", "schema_version", "hourly_counters"] }
}

/// A way of starting ``TestServer``s: how a scenario gets its server.
public protocol TestServerKind: Sendable, CustomStringConvertible {
    /// Starts a server with the binary's options (`["--refresh-grace", "0"]`) over a fresh
    /// database, mail folder and clock.
    func start(_ options: [String]) async throws -> any TestServer
}

extension TestServerKind {
    /// A server with the default options.
    public func start() async throws -> any TestServer { try await start([]) }
}
