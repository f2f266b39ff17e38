import Foundation
import HTTPServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension InProcessServer {
    /// A transport for AccountKit's client (`AccountClient(baseURL:transport:)`) that hands each
    /// request to this app as the HTTP server would, without a socket: what the client sends and
    /// reads is the same, and the app's routing, limits, errors and common headers all apply.
    ///
    /// The HTTP layer's own framing checks (body size, chunked uploads, deadlines) are not in
    /// the way; tests of those talk to a ``ServerProcess``.
    public var transport: @Sendable (URLRequest) async throws -> (Data, URLResponse) {
        { [self] request in
            guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
                throw URLError(.badURL)
            }
            let response = await respond(to: Self.request(from: request, components))
            let fields = Dictionary(response.headers.map { ($0.name, $0.value) }) { first, next in first + ", " + next }
            guard let reply = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields) else {
                throw URLError(.badServerResponse)
            }
            return (request.httpMethod == "HEAD" ? Data() : Data(response.body), reply)
        }
    }

    /// The request the HTTP server would make of what a client sent: path and query decoded
    /// (a repeated query name keeps its first value), the headers as sent plus `Host` and
    /// `Content-Length`, from loopback.
    static func request(from request: URLRequest, _ components: URLComponents) -> HTTPRequest {
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] where query[item.name] == nil { query[item.name] = item.value ?? "" }
        let body = [UInt8](request.httpBody ?? Data())
        var headers = HTTPHeaders()
        headers.add("Host", components.host ?? "localhost")
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) { headers.add(name, value) }
        if !body.isEmpty || request.httpMethod == "POST" || request.httpMethod == "PUT" || request.httpMethod == "PATCH" {
            headers.set("Content-Length", String(body.count))
        }
        return HTTPRequest(
            method: request.httpMethod ?? "GET", path: components.path.isEmpty ? "/" : components.path, query: query,
            headers: headers, body: body)
    }
}
