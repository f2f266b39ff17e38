import Foundation
import TestSupport
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

/// Sends a request to the test server over the shared session.
func fetch(
    _ port: Int, _ pathAndQuery: String, method: String = "GET", headers: [String: String] = [:],
    body: Data? = nil
) async throws -> Reply {
    try await HTTPClient(port: port, session: session).send(method, pathAndQuery, body: body, headers: headers)
}
