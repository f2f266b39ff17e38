import Curl
import Foundation
import Workers

/// One HTTPS request to another service (Apple's keys, token and revoke endpoints), by libcurl.
public struct WebRequest: Sendable {
    public var url: String
    /// `GET`, or `POST` when `form` is given.
    public var form: [(String, String)]?
    /// The reply's body may be at most this many bytes; a longer one fails the request.
    public var maximumBodySize: Int
    /// Seconds for the whole exchange, connection included.
    public var timeout: TimeInterval

    public init(url: String, form: [(String, String)]? = nil, maximumBodySize: Int = 64 * 1024, timeout: TimeInterval = 5) {
        self.url = url
        self.form = form
        self.maximumBodySize = maximumBodySize
        self.timeout = timeout
    }
}

/// What another service answered.
public struct WebResponse: Sendable {
    public var status: Int
    public var body: [UInt8]
}

/// Why a request got no reply: never the URL's query or the form's values, which may hold secrets.
public struct WebFetchError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}

/// Runs requests on threads of its own (a blocking `curl_easy_perform` each), a few at a time,
/// with a bounded queue, so a slow service never holds the cooperative pool.
///
/// Only `http` and `https`, no redirects followed, TLS certificates verified, bodies bounded.
public final class WebFetcher: Sendable {
    private let workers: WorkerPool<Void>

    public init(threads: Int = 2, queueLimit: Int = 64) {
        workers = WorkerPool(name: "webfetch", threads: threads, queueLimit: queueLimit) { refusal in
            switch refusal {
            case .full: WebFetchError(description: "too many requests to other services wait already")
            case .stopped: WebFetchError(description: "the fetcher was stopped")
            }
        }
    }

    /// Sends `request` and waits for the whole reply.
    /// - Throws: ``WebFetchError`` when there is no reply (connection, TLS, timeout, a body over
    ///   its limit); a reply of any status is returned.
    public func fetch(_ request: WebRequest) async throws -> WebResponse {
        try await workers.run { _ in try Self.perform(request) }
    }

    /// Stops the threads.
    public func stop() { workers.stop() }

    private static func perform(_ request: WebRequest) throws -> WebResponse {
        let curl: CurlEasy
        do {
            curl = try CurlEasy()
        } catch {
            throw WebFetchError(description: "libcurl could not be set up")
        }
        do {
            try curl.set(.url, request.url)
            try curl.set(.protocols, "http,https")
            try curl.followRedirects(false)
            try curl.setTimeout(request.timeout)
            try curl.collectBody(upTo: request.maximumBodySize)
            try curl.set(.userAgent, "account-server")
            if let form = request.form {
                // libcurl copies the body (COPYPOSTFIELDS) and sends it form-encoded.
                try curl.set(.postFields, formEncoded(form))
            }
        } catch {
            throw WebFetchError(description: "libcurl refused an option")
        }

        var failure: CurlError?
        do { try curl.perform() } catch { failure = error }
        guard !curl.bodyOverflowed else { throw WebFetchError(description: "the reply was longer than \(request.maximumBodySize) bytes") }
        if let failure {
            // libcurl's text for the result code only, not the error buffer's detail.
            let reason = if case .transferFailed(let reason, _) = failure { reason } else { failure.description }
            throw WebFetchError(description: reason)
        }
        return WebResponse(status: curl.responseCode, body: curl.body)
    }

    /// `application/x-www-form-urlencoded` (the WHATWG form serializer's unreserved set).
    static func formEncoded(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*-._")
        return fields.map { name, value in
            (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
        }.joined(separator: "&")
    }
}
