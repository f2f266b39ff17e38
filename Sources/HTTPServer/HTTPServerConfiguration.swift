/// Where and how the server listens, and the limits it enforces.
public struct HTTPServerConfiguration: Sendable {
    /// The IPv4 or IPv6 literal to bind, for example `"0.0.0.0"` or `"::1"`.
    public var host: String = "127.0.0.1"
    /// The TCP port; `0` picks a free one (read it back from ``HTTPServer/port``).
    public var port: Int = 8000
    /// The size of the internal thread pool that runs the event loops (epoll where available).
    public var threads: Int = 2
    /// The largest request body accepted, in bytes; a larger one is answered with `tooLarge`.
    public var maxBodySize: Int = 65536
    /// The most connections served at once; more wait in the listen backlog.
    public var connectionLimit: Int = 4096
    /// Seconds of inactivity after which a connection is closed.
    public var connectionTimeout: Int = 30

    /// Creates a configuration; every parameter has a default.
    public init(
        host: String = "127.0.0.1", port: Int = 8000, threads: Int = 2, maxBodySize: Int = 65536,
        connectionLimit: Int = 4096, connectionTimeout: Int = 30
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodySize = maxBodySize
        self.connectionLimit = connectionLimit
        self.connectionTimeout = connectionTimeout
    }
}
