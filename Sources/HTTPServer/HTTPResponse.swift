/// A complete response: status, headers and body.
///
/// `Content-Length` is computed by the server; a `Connection: close` header closes the connection
/// after the response.
public struct HTTPResponse: Sendable {
    /// The status code, for example `200`.
    public var status: Int
    /// The response headers, sent in this order.
    public var headers: HTTPHeaders
    /// The response body (not sent for `HEAD`).
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
