/// Where and how the server listens, and the limits it enforces.
public struct HTTPServerConfiguration: Sendable {
    /// The IPv4 or IPv6 literal to bind, for example `"0.0.0.0"` or `"::1"`.
    public var host: String
    /// The TCP port; `0` picks a free one (read it back from ``HTTPServer/port``).
    public var port: Int
    /// The number of event-loop threads (epoll on Linux, kqueue on Darwin).
    public var threads: Int
    /// The largest request body accepted, in bytes; a larger one is refused with 413 unread.
    public var maxBodySize: Int
    /// The most connections open at once. A connection over it is closed at once rather than left
    /// waiting in the listen backlog, and the last sixteenth is kept for addresses that hold fewer
    /// than ``reserveThreshold`` connections, so a newcomer still gets in while others flood.
    public var connectionLimit: Int
    /// The most connections one client address may hold open (IPv6 counted by /64); further ones
    /// are closed at once. `0` turns the cap off.
    public var maxConnectionsPerAddress: Int
    /// Peers the per-address cap does not apply to (a load balancer carries many clients on its
    /// connections), as IP literals; they still count towards ``connectionLimit``.
    public var uncappedAddresses: [String]
    /// Seconds from a request's first byte (for a new connection: from its accept) to the end of its
    /// head. A total: bytes trickled in do not extend it. Then `408` and the connection is closed.
    public var headerTimeout: Int
    /// Seconds a keep-alive connection may stay idle between requests; also the total time a body
    /// may take to arrive after its head, and a reply to be taken by the client.
    public var connectionTimeout: Int
    /// The longest request line (method, target and version) in bytes; a longer one gets `414`.
    public var maxRequestLineLength: Int
    /// The most bytes of header lines after the request line; more get `431`.
    public var maxHeaderBytes: Int
    /// The most header lines in one request; more get `431`.
    public var maxHeaderCount: Int
    /// The most query parameters in one request target; more get `414`.
    public var maxQueryParameters: Int

    /// An address holding fewer connections than this may use the reserved part of ``connectionLimit``.
    public static let reserveThreshold = 4

    /// Creates a configuration; every parameter has a default.
    public init(
        host: String = "127.0.0.1", port: Int = 8000, threads: Int = 2, maxBodySize: Int = 65536,
        connectionLimit: Int = 4096, maxConnectionsPerAddress: Int = 64, uncappedAddresses: [String] = [],
        headerTimeout: Int = 10, connectionTimeout: Int = 30, maxRequestLineLength: Int = 8192,
        maxHeaderBytes: Int = 16384, maxHeaderCount: Int = 100, maxQueryParameters: Int = 100
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodySize = maxBodySize
        self.connectionLimit = connectionLimit
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.uncappedAddresses = uncappedAddresses
        self.headerTimeout = headerTimeout
        self.connectionTimeout = connectionTimeout
        self.maxRequestLineLength = maxRequestLineLength
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxQueryParameters = maxQueryParameters
    }
}
