import AccountStore
import HTTPServer
import Mailer

/// The account API: the ``Services``, the ``Router`` their route groups fill, and the metrics;
/// the HTTP server calls ``handle(_:)`` (and ``fastHandle(_:)``, ``refused(_:_:)``) for every
/// request. Tests call them directly, without a socket.
///
/// ```swift
/// let app = try await AccountApp.make(configuration: configuration, store: store, transport: transport)
/// let response = await app.handle(request)
/// ```
public final class AccountApp: Sendable {
    /// Everything the routes and the request path work with.
    let services: Services
    /// Method and path to handler; every match names its route pattern.
    let router: Router
    /// Counters and histograms for `GET /metrics`, labelled by the router's route patterns.
    let metrics: Metrics
    /// The metrics' per-route counters, which every reply is recorded into (a constant here, so
    /// recording reads no shared reference).
    let routeTable: RouteTable

    private init(services: Services) {
        self.services = services
        router = Routes.router(services)
        metrics = services.metrics
        routeTable = metrics.track(patterns: router.routePatterns)
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

    /// Stops background work (mail delivery, hashing threads).
    public func shutdown() async { await services.stop() }

    /// Every route the router knows, as `(method, path)`.
    public var routes: [(method: String, path: String)] { router.routes }

    /// Delivers due mail now (tests use it to avoid waiting for the timer).
    public func deliverMail() async { await services.mail.deliverDue() }
}
