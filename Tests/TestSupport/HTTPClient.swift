import AccountAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plain URLSession client of one server, with no cache, cookies or stored credentials.
public struct HTTPClient: Sendable {
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

    /// Sends a request; `json` (a dictionary) becomes an `application/json` body, else `body` goes
    /// as it is with `contentType`.
    public func send(
        _ method: String, _ path: String, json: [String: Any]? = nil, body: Data? = nil, contentType: String? = nil,
        token: String? = nil, headers: [String: String] = [:]
    ) async throws -> Reply {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            request.httpBody = body
            if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestFailure("not an HTTP response to \(method) \(path)") }
        let fields = http.allHeaderFields.compactMap { name, value in
            (name as? String).flatMap { name in (value as? String).map { Reply.Field(name: name, value: $0) } }
        }
        return Reply(status: http.statusCode, fields: fields, body: data)
    }

    /// Sends an `Encodable` wire model as JSON (snake_case keys come from its coding keys).
    public func send<Body: Encodable>(_ method: String, _ path: String, model: Body, token: String? = nil) async throws -> Reply {
        let data = try AccountJSON.makeEncoder().encode(model)
        return try await send(method, path, body: data, contentType: "application/json", token: token)
    }
}
