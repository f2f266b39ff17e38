import HTTPServer

/// A set of routes over the ``Services``, registered together.
///
/// A group holds the services and adds its routes to the router; the handlers are its methods.
protocol RouteGroup: Sendable {
    /// Adds the group's routes to `router`.
    func register(on router: inout Router)
}

/// The route table of docs/API.md: every group, each registering its own routes.
enum Routes {
    static func router(_ services: Services) -> Router {
        var router = Router()
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
            SecurityEventRoutes(services: services),
            FiguresRoutes(services: services),
            AppleRoutes(services: services),
        ]
        for group in groups { group.register(on: &router) }
        return router
    }
}
