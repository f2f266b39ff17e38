import Foundation
import Synchronization

/// A small HTTP/1.1 server: keep-alive, pipelining, `HEAD`, `100-continue`, strict message
/// syntax, body and head limits, connection caps per client address, async handlers and
/// graceful shutdown. Event loops (epoll on Linux, kqueue on Darwin) own the connections; a
/// request goes to the async handler in a task, or is answered in the loop by the fast handler.
///
/// ```swift
/// let server = HTTPServer(
///     configuration: .init(port: 0),
///     fastHandler: { $0.path == "/healthz" ? HTTPResponse(status: 200) : nil },
///     handler: { request in HTTPResponse(status: 200, body: Array("hi".utf8)) })
/// try server.start()
/// print(server.port)
/// await server.shutdown()
/// ```
public final class HTTPServer: Sendable {
    let configuration: HTTPServerConfiguration
    let responder: @Sendable (HTTPRequest) -> HTTPReply
    let refused: @Sendable (HTTPRequest, HTTPRefusal) -> HTTPResponse
    let inFlight = InFlightRequests()
    private let lifecycle = Mutex(Lifecycle.idle)

    /// Creates a server; nothing listens until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: address, threads and limits.
    ///   - fastHandler: tried first, on the event loop's thread, for requests without a body; a
    ///     non-nil response is sent at once. Keep it cheap and non-blocking (e.g. `/healthz`).
    ///   - refused: builds the reply to a request the server refuses itself (malformed, over a
    ///     limit, a body sent chunked or too large, too slow); it gets as much of the request as
    ///     was understood (no body). Defaults to ``HTTPResponse/refusal(_:)``.
    ///   - handler: answers every other request, in a task.
    public convenience init(
        configuration: HTTPServerConfiguration,
        fastHandler: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil,
        refused: @escaping @Sendable (HTTPRequest, HTTPRefusal) -> HTTPResponse = { HTTPResponse.refusal($1) },
        handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) {
        self.init(configuration: configuration, refused: refused) { request in
            if request.body.isEmpty, let fastHandler, let response = fastHandler(request) { return .ready(response) }
            return .pending { await handler(request) }
        }
    }

    /// Creates a server whose `responder` sees every complete request on the event loop's thread
    /// and answers it at once or hands back the work that answers it (see ``HTTPReply``); nothing
    /// listens until ``start()``.
    ///
    /// - Parameters:
    ///   - configuration: address, threads and limits.
    ///   - refused: builds the reply to a request the server refuses itself, as in
    ///     ``init(configuration:fastHandler:refused:handler:)``.
    ///   - responder: runs on the event loop's thread: it must not block.
    public init(
        configuration: HTTPServerConfiguration,
        refused: @escaping @Sendable (HTTPRequest, HTTPRefusal) -> HTTPResponse = { HTTPResponse.refusal($1) },
        responder: @escaping @Sendable (HTTPRequest) -> HTTPReply
    ) {
        self.configuration = configuration
        self.refused = refused
        self.responder = responder
    }

    /// Binds, listens and starts the event loops.
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
            let threads = max(1, configuration.threads)
            // Every connection is a descriptor; keep room for the database, logs and spares.
            let descriptors = Socket.raiseDescriptorLimit(to: configuration.connectionLimit + 256)
            let limit = max(16, min(configuration.connectionLimit, descriptors - 128 - 2 * threads))
            let listener: Int32
            switch Socket.listen(on: address, backlog: Int32(clamping: min(limit, 4096))) {
            case .success(let descriptor): listener = descriptor
            case .failure: throw HTTPServerError.cannotListen("cannot listen on \(host) port \(port) (in use or not permitted)")
            }
            let core = ServerCore(
                configuration: configuration, listener: listener,
                admission: ConnectionAdmission(
                    limit: limit, perAddress: configuration.maxConnectionsPerAddress,
                    uncapped: Set(configuration.uncappedAddresses.compactMap(PeerAddress.init(literal:)))),
                inFlight: inFlight, responder: responder, refused: refused)
            var loops: [EventLoop] = []
            for _ in 0..<threads {
                guard let loop = EventLoop(core: core) else {
                    close(listener)
                    throw HTTPServerError.cannotListen("cannot create an event loop")
                }
                loops.append(loop)
            }
            for loop in loops { loop.join(loops) }
            for (index, loop) in loops.enumerated() {
                let thread = Thread { loop.run() }
                thread.name = "http-\(index)"
                thread.start()
            }
            state = .running(Running(listener: listener, loops: loops), port: Socket.boundPort(listener))
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
    /// their responses, then closes every connection and the listening socket. Safe to call twice.
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
            case .running(let running, _):
                let task = Task { await self.stop(running) }
                state = .stopping(task)
                return task
            }
        }
        await stopping?.value
    }

    private func stop(_ running: Running) async {
        // From here on a new request is answered 503 with `Connection: close` instead of reaching
        // the handler; each request in flight is answered before the loops stop.
        inFlight.beginStopping()
        for loop in running.loops { loop.stopAccepting() }
        await inFlight.drained()
        for loop in running.loops { loop.stop() }
        for loop in running.loops { await loop.exited.wait() }
        close(running.listener)
        lifecycle.withLock { $0 = .stopped }
    }
}

/// Where the server is between `init` and after `shutdown`.
enum Lifecycle {
    case idle
    case running(Running, port: Int)
    case stopping(Task<Void, Never>)
    case stopped
}

/// A started server's listening socket and loops; only `start` and `stop` touch it.
struct Running: Sendable {
    let listener: Int32
    let loops: [EventLoop]
}
