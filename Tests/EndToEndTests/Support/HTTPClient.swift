import AccountAPI
import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP reply: status, headers (names in lower case) and body.
struct Reply: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    /// A header by name, in any letter case.
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body decoded as the API's JSON.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try AccountJSON.makeDecoder().decode(type, from: body)
        } catch {
            throw TestFailure("status \(status), cannot decode \(T.self) from \(text): \(error)")
        }
    }

    /// The body as an RFC 9457 problem.
    var problem: Problem? { try? AccountJSON.makeDecoder().decode(Problem.self, from: body) }

    /// The body as a JSON object, as a client without the SDK reads it.
    var object: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }

    /// The body as text, for failure messages.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A plain URLSession client of one server, with no cache, cookies or stored credentials.
struct HTTPClient: Sendable {
    let base: URL
    private let session: URLSession

    init(port: Int) {
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
    func send(
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
        var names: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { names[name.lowercased()] = value }
        }
        return Reply(status: http.statusCode, headers: names, body: data)
    }

    /// Sends an `Encodable` wire model as JSON (snake_case keys come from its coding keys).
    func send<Body: Encodable>(_ method: String, _ path: String, model: Body, token: String? = nil) async throws -> Reply {
        let data = try AccountJSON.makeEncoder().encode(model)
        return try await send(method, path, body: data, contentType: "application/json", token: token)
    }
}
