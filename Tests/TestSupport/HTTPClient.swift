import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plain URLSession client of one server, with no cache, cookies or stored credentials.
public struct HTTPClient: RequestSender {
    public let base: URL
    private let session: URLSession

    public init(port: Int) {
        base = URL(string: "http://127.0.0.1:\(port)")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.timeoutIntervalForRequest = 30
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration)
    }

    /// A client of the server on `port` over a session of the caller's (one shared by many
    /// clients, with room for more connections).
    public init(port: Int, session: URLSession) {
        base = URL(string: "http://127.0.0.1:\(port)")!
        self.session = session
    }

    /// Sends `request` over a real socket.
    public func send(_ request: TestRequest) async throws -> Reply {
        var urlRequest = URLRequest(url: URL(string: request.target, relativeTo: base)!)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for field in request.fields { urlRequest.setValue(field.value, forHTTPHeaderField: field.name) }
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else {
            throw TestFailure("not an HTTP response to \(request.method) \(request.target)")
        }
        let fields = http.allHeaderFields.compactMap { name, value in
            (name as? String).flatMap { name in (value as? String).map { Reply.Field(name: name, value: $0) } }
        }
        return Reply(status: http.statusCode, fields: fields, body: data)
    }
}
