/// A request as the server hands it to a handler: fully read, body included.
public struct HTTPRequest: Sendable {
    /// The method as sent, for example `"GET"`.
    public var method: String
    /// The percent-decoded path without the query, for example `"/auth/me/"`.
    public var path: String
    /// The decoded query arguments; a repeated name keeps its first value.
    public var query: [String: String]
    /// The request headers in the order they were sent.
    public var headers: HTTPHeaders
    /// The request body (empty when none was sent).
    public var body: [UInt8]
    /// The peer's IP address as text, `"127.0.0.1"` or `"::1"`.
    public var remoteAddress: String

    /// Creates a request; handy for calling handlers directly in tests.
    public init(
        method: String, path: String, query: [String: String] = [:], headers: HTTPHeaders = [:],
        body: [UInt8] = [], remoteAddress: String = "127.0.0.1"
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }
}
