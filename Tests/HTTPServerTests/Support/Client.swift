import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession allowing many parallel connections to one host.
let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 256
    configuration.timeoutIntervalForRequest = 30
    return URLSession(configuration: configuration)
}()

/// Sends a request to the test server and returns status, headers and body text.
func fetch(
    _ port: Int, _ pathAndQuery: String, method: String = "GET", headers: [String: String] = [:],
    body: Data? = nil
) async throws -> (status: Int, response: HTTPURLResponse, body: String) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await session.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    return (http.statusCode, http, String(decoding: data, as: UTF8.self))
}

