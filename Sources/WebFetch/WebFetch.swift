import CCurl
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

    private static let globalInit: CURLcode = ccurl_global_init_all()

    private static func perform(_ request: WebRequest) throws -> WebResponse {
        guard globalInit == CURLE_OK, let handle = curl_easy_init() else { throw WebFetchError(description: "libcurl could not be set up") }
        defer { curl_easy_cleanup(handle) }
        let sink = BodySink(limit: request.maximumBodySize)
        let millis = max(1, Int(request.timeout * 1000))
        var failed = false
        func setNumber(_ option: CURLoption, _ value: Int) { failed = failed || ccurl_setopt_long(handle, option, value) != CURLE_OK }
        func setText(_ option: CURLoption, _ value: String) {
            failed = failed || value.withCString { ccurl_setopt_string(handle, option, $0) } != CURLE_OK
        }
        setText(CURLOPT_URL, request.url)
        setText(CURLOPT_PROTOCOLS_STR, "http,https")
        setNumber(CURLOPT_NOSIGNAL, 1)
        setNumber(CURLOPT_FOLLOWLOCATION, 0)
        setNumber(CURLOPT_CONNECTTIMEOUT_MS, millis)
        setNumber(CURLOPT_TIMEOUT_MS, millis)
        setNumber(CURLOPT_MAXFILESIZE_LARGE, request.maximumBodySize)
        setText(CURLOPT_USERAGENT, "account-server")
        if let form = request.form {
            // libcurl copies the body (COPYPOSTFIELDS) and sends it form-encoded.
            setText(CURLOPT_COPYPOSTFIELDS, formEncoded(form))
        }
        failed = failed || ccurl_setopt_write_function(handle, webFetchWrite) != CURLE_OK
        failed = failed || ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque()) != CURLE_OK
        guard !failed else { throw WebFetchError(description: "libcurl refused an option") }

        let code = withExtendedLifetime(sink) { curl_easy_perform(handle) }
        guard !sink.overflowed else { throw WebFetchError(description: "the reply was longer than \(request.maximumBodySize) bytes") }
        guard code == CURLE_OK else { throw WebFetchError(description: String(cString: curl_easy_strerror(code))) }
        var status = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return WebResponse(status: status, body: sink.bytes)
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

/// The reply's body as it arrives, up to its limit.
private final class BodySink {
    let limit: Int
    var bytes: [UInt8] = []
    var overflowed = false
    init(limit: Int) { self.limit = limit }
}

/// libcurl's write callback: appends to the ``BodySink``; a wrong count (0) aborts the transfer
/// once the body is over its limit.
private func webFetchWrite(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let data, let context else { return 0 }
    let sink = Unmanaged<BodySink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard sink.bytes.count + length <= sink.limit else {
        sink.overflowed = true
        return 0
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
    return length
}
