import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server over libmicrohttpd: keep-alive, pipelining, HEAD, body limits,
/// async handlers and graceful shutdown.
///
/// ```swift
/// let server = HTTPServer(
///     configuration: .init(port: 0),
///     fastHandler: { $0.path == "/healthz" ? HTTPResponse(status: 200) : nil },
///     tooLarge: { _ in HTTPResponse(status: 413) },
///     handler: { request in HTTPResponse(status: 200, body: Array("hi".utf8)) })
/// try server.start()
/// print(server.port)
/// await server.shutdown()
/// ```
public final class HTTPServer: Sendable {
    let configuration: HTTPServerConfiguration
    let fastHandler: (@Sendable (HTTPRequest) -> HTTPResponse?)?
    let tooLarge: @Sendable (HTTPRequest) -> HTTPResponse
    let lengthRequired: @Sendable (HTTPRequest) -> HTTPResponse
    let handler: @Sendable (HTTPRequest) async -> HTTPResponse
    let inFlight = InFlightRequests()
    private let lifecycle = Locked(Lifecycle.idle)

    /// Creates a server; nothing listens until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: address, threads and limits.
    ///   - fastHandler: tried first, inside libmicrohttpd's callback, for requests without a body;
    ///     a non-nil response is sent at once. Keep it cheap and non-blocking (e.g. `/healthz`).
    ///   - tooLarge: builds the reply for a body over `maxBodySize` (the request comes without body).
    ///   - lengthRequired: builds the reply for a body sent with `Transfer-Encoding` (chunked)
    ///     rather than `Content-Length`; such bodies are never read. Defaults to
    ///     ``HTTPResponse/lengthRequired``.
    ///   - handler: answers every other request, in a task, while the connection is suspended.
    public init(
        configuration: HTTPServerConfiguration,
        fastHandler: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil,
        tooLarge: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
        lengthRequired: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in .lengthRequired },
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) {
        self.configuration = configuration
        self.fastHandler = fastHandler
        self.tooLarge = tooLarge
        self.lengthRequired = lengthRequired
        self.handler = handler
    }

    /// Binds and listens on the configured address.
    ///
    /// - Throws: ``HTTPServerError/cannotListen(_:)`` when the host is not an IP literal, the port
    ///   is taken, or the server was already started or shut down.
    public func start() throws {
        let host = configuration.host, port = configuration.port
        guard let address = SocketAddress(host: host, port: port) else {
            throw HTTPServerError.cannotListen("\(host) port \(port) is not an IP literal and port")
        }
        try lifecycle.withLock { state in
            guard case .idle = state else {
                throw HTTPServerError.cannotListen("server already started or shut down")
            }
            // MHD holds the server until `shutdown` stops the daemon, so callbacks never see it freed.
            let context = Unmanaged.passRetained(self)
            let daemon = address.withSockaddr { sockaddr in
                cmhd_start_daemon(
                    address.isIPv6 ? 1 : 0, sockaddr,
                    UInt32(clamping: configuration.threads), UInt32(clamping: configuration.connectionLimit),
                    UInt32(clamping: configuration.connectionTimeout),
                    mhdAccessHandler, context.toOpaque(), mhdRequestCompleted, context.toOpaque())
            }
            guard let daemon else {
                context.release()
                throw HTTPServerError.cannotListen("cannot listen on \(host) port \(port) (in use or not permitted)")
            }
            state = .running(Daemon(pointer: daemon), port: Int(cmhd_bound_port(daemon)))
        }
    }

    /// The bound port: the real one when port 0 was asked; 0 before ``start()`` or after shutdown.
    public var port: Int {
        lifecycle.withLock { state in
            if case .running(_, let port) = state { return port }
            return 0
        }
    }

    /// Stops gracefully: stops accepting connections, lets requests in flight finish and send
    /// their responses, then stops the daemon and closes the socket. Safe to call twice.
    ///
    /// Requests arriving on open keep-alive connections meanwhile get `503` with `Connection: close`.
    public func shutdown() async {
        let stopping: Task<Void, Never>? = lifecycle.withLock { state in
            switch state {
            case .idle:
                state = .stopped
                return nil
            case .stopped:
                return nil
            case .stopping(let task):
                return task
            case .running(let daemon, _):
                let task = Task { await self.stop(daemon) }
                state = .stopping(task)
                return task
            }
        }
        await stopping?.value
    }

    private func stop(_ daemon: Daemon) async {
        // From here on a new request is answered 503 with `Connection: close` instead of reaching
        // the handler. MHD forbids stopping while connections are suspended; each in-flight
        // request resumes its own connection when its handler returns.
        inFlight.beginStopping()
        await inFlight.drained()
        // Quiescing only after the drain: a resume racing a quiesce was seen to leave a response
        // unsent for seconds under heavy load (libmicrohttpd 0.9.75, epoll, thread pool).
        let listenSocket = MHD_quiesce_daemon(daemon.pointer)
        MHD_stop_daemon(daemon.pointer)
        if listenSocket >= 0 { close(listenSocket) }
        lifecycle.withLock { $0 = .stopped }
        Unmanaged.passUnretained(self).release()
    }
}

/// Where the server is between `init` and after `shutdown`.
enum Lifecycle {
    case idle
    case running(Daemon, port: Int)
    case stopping(Task<Void, Never>)
    case stopped
}

/// A running libmicrohttpd daemon; only `start` and `stop` touch it.
struct Daemon: @unchecked Sendable {
    let pointer: OpaquePointer
}
