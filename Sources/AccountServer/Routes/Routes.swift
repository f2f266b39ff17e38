import AccountAPI
import AccountCore
import AccountStore
import HTTPServer
import Mailer

/// A set of routes over the ``Services``, registered together.
///
/// A group holds the services and adds its routes to the router, each in the ``RouteSets`` set
/// whose steps it runs; the handlers are its methods.
protocol RouteGroup: Sendable {
    /// Adds the group's routes to `router`.
    func register(on router: inout Router, _ sets: RouteSets)
}

/// Which steps each kind of route runs, in order: the one place a route's limits, caching and
/// authentication are decided.
struct RouteSets: Sendable {
    /// The account API without a token (`/auth/...`): `no-store`, JSON bodies, the per-address limit.
    let account: RouteSet<RequestContext>
    /// A way to sign in: as ``account``, with a refusal of the address limit recorded as a sign-in refused.
    let signIn: RouteSet<RequestContext>
    /// The signed-in account: as ``account``, then authentication.
    let signedIn: RouteSet<AuthenticatedContext>
    /// The operators' API (`/admin/api/...`): `no-store`, JSON bodies, authentication, the operator gate.
    let operators: RouteSet<AuthenticatedContext>
    /// Documents and probes anyone may read (keys, the contract, health, metrics, the console's
    /// files): JSON bodies only.
    let open: RouteSet<RequestContext>

    init(_ services: Services) {
        let configuration = services.configuration
        let addressLimit = AddressLimit(
            limit: configuration.ipRateLimit, local: AddressRateLimiter(limit: configuration.ipRateLimit),
            shared: services.sharedAddressCounts)
        let account: [any Middleware] = [NoStore(), JSONBody(), addressLimit]
        self.account = RouteSet(account)
        signIn = RouteSet([NoStore(), JSONBody(), addressLimit.recordingSignIns(services.events)])
        let authenticator = Authenticator(services: services)
        signedIn = authenticator.signedIn(before: account)
        operators = authenticator.operators(before: [NoStore(), JSONBody()])
        open = RouteSet([JSONBody()])
    }
}

/// The route table of docs/API.md: every group, each registering its own routes, and the
/// pipeline every request takes to them.
enum Routes {
    static func pipeline(_ services: Services) -> Pipeline {
        let sets = RouteSets(services)
        var router = Router()
        router.mount("/auth", sets.account)
        router.mount("/admin/api", sets.operators)
        let groups: [any RouteGroup] = [
            SignUpRoutes(services: services),
            SessionRoutes(services: services),
            ProfileRoutes(services: services),
            PasswordRoutes(services: services),
            SecondFactorRoutes(services: services),
            PasskeyRoutes(services: services),
            DiscoveryRoutes(services: services),
            OperationsRoutes(services: services),
            AdminRoutes(services: services),
            ConsoleRoutes(),
            SecurityEventRoutes(services: services),
            FiguresRoutes(services: services),
            AppleRoutes(services: services),
        ]
        for group in groups { group.register(on: &router, sets) }
        let metrics = services.metrics
        var outer: [any Middleware] = [CommonHeaders(), RecordMetrics(metrics: metrics, table: metrics.track(patterns: router.routePatterns))]
        if services.configuration.accessLog { outer.append(AccessLog()) }
        outer.append(PathForm())
        return Pipeline(
            outer: outer, router: router, clock: services.clock, trustedProxies: services.configuration.trustedProxies, metrics: metrics)
    }
}
