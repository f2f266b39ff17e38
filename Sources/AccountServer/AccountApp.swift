import AccountCore
import AccountStore
import HTTPServer
import Mailer

/// The account API: the ``Services``, and the ``Pipeline`` over the routes their groups
/// register; the HTTP server hands it every request (``respond(to:)``) and every request it
/// refused itself (``refused(_:_:)``). Tests call them directly, without a socket.
///
/// ```swift
/// let app = try await AccountApp.make(configuration: configuration, store: store, transport: transport)
/// let response = await app.handle(request)
/// ```
public final class AccountApp: Sendable {
    /// Everything the routes and the request path work with.
    let services: Services
    /// Requests in, replies out.
    let pipeline: Pipeline
    /// Counters and histograms for `GET /metrics`, labelled by the router's route patterns.
    let metrics: Metrics

    private init(services: Services) {
        self.services = services
        metrics = services.metrics
        pipeline = Routes.pipeline(services)
    }

    /// Starts the services (see ``Services/start(configuration:store:transport:clock:)``: the store
    /// migrated, secrets and keys loaded or made, mail delivery started) and routes over them.
    /// - Throws: ``SecretsError`` when the key file is missing or malformed, or the database was
    ///   sealed with another key (or with one, and none is given).
    public static func make(
        configuration: ServerConfiguration, store: any AccountStore, transport: any MailTransport,
        clock: ServerClock = .system
    ) async throws -> AccountApp {
        AccountApp(services: try await Services.start(configuration: configuration, store: store, transport: transport, clock: clock))
    }

    /// Answers `request` on the calling (HTTP) thread, or hands back the rest of its way to run in
    /// a task, from the first step that has to wait.
    public func respond(to request: HTTPRequest) -> HTTPReply { pipeline.respond(to: request) }

    /// Answers `request`, waiting where it has to.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse { await pipeline.handle(request) }

    /// The reply to a request the HTTP layer refused before routing it (malformed, over a limit,
    /// a body sent chunked or too large, too slow); a refused body is never read.
    public func refused(_ request: HTTPRequest, _ refusal: HTTPRefusal) -> HTTPResponse { pipeline.refused(request, refusal) }

    /// Stops background work (mail delivery, hashing threads).
    public func shutdown() async { await services.stop() }

    /// Every route the router knows, as `(method, path)`.
    public var routes: [(method: String, path: String)] { pipeline.router.routes }

    /// Delivers due mail now (tests use it to avoid waiting for the timer).
    public func deliverMail() async { await services.mail.deliverDue() }
}
