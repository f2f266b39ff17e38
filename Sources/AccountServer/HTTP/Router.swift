import AccountAPI
import AccountCore
import HTTPServer

/// Routes that run the same middleware and whose handlers take the same context: the signed-in
/// account's (``Authenticator/signedIn(before:after:)``), the operators', the open ones.
struct RouteSet<Context: Sendable>: Sendable {
    /// Who the contract lets call the set's endpoints; a route is registered only in a set of its
    /// endpoint's kind.
    let auth: Endpoint.Auth
    /// The steps every request of the set passes before its handler, in order.
    let steps: [any Middleware]
    /// What the handlers take, made from the context the steps leave.
    let context: @Sendable (RequestContext) throws -> Context
}

extension RouteSet where Context == RequestContext {
    /// Routes without a token whose handlers take the request context as the steps leave it.
    init(_ steps: [any Middleware]) {
        self.init(auth: .none, steps: steps) { $0 }
    }
}

/// A route's steps and the handler after them.
struct RouteEntry: Sendable {
    /// How the handler answers: at once (on the HTTP thread when nothing before it waited), or
    /// in a task.
    enum Responder: Sendable {
        case immediate(@Sendable (RequestContext) throws -> HTTPResponse)
        case waiting(@Sendable (RequestContext) async throws -> HTTPResponse)
    }

    let steps: [any Middleware]
    let responder: Responder
}

/// Maps method and path to route entries; `{name}` segments capture parameters.
///
/// A trailing slash names the same path (the original backend was Django, which used them). A path
/// that exists with other methods answers 405 with `Allow`; others 404. Every match says which
/// route pattern it found, which is how metrics label a request without matching it again.
struct Router: Sendable {
    private struct Route: Sendable {
        /// The path as registered, without a trailing slash: `/auth/sessions/{id}`.
        let pattern: String
        let segments: [String]
        var handlers: [String: RouteEntry]
    }

    /// What routing a request found.
    struct Match: Sendable {
        /// The pattern of the route whose path matched (`/auth/sessions/{id}`), also when the
        /// method did not; `nil` when no route has this path.
        public let pattern: String?
        /// The values of the pattern's `{name}` segments.
        public let parameters: [String: String]
        /// The entry for the request's method, or why there is none (404, or 405 with `Allow`).
        let entry: Result<RouteEntry, Refusal>
        /// For a refusal of routing: the steps whose marks (headers) it carries; the route's when
        /// only the method is wrong, the mount's when no route has the path (see
        /// ``Router/mount(_:_:)``). Empty when the route was found (its entry has the steps).
        let refusalSteps: [any Middleware]
    }

    /// Why routing found no entry.
    enum Refusal: Error, Sendable {
        case notFound
        /// The path exists with these methods only.
        case methodNotAllowed([String])

        /// The reply: `404 not_found`, or `405` with `Allow`.
        var error: APIError {
            switch self {
            case .notFound: .notFound
            case .methodNotAllowed(let allowed): .methodNotAllowed(allowed)
            }
        }
    }

    private var exact: [String: Route] = [:]
    private var patterns: [Route] = []
    /// Path prefixes whose unknown paths are refused with a set's marks, longest first.
    private var mounts: [(prefix: String, steps: [any Middleware])] = []

    init() {}

    /// Adds `handler` for the contract's `endpoint` (its method and path, like
    /// `DELETE /auth/sessions/{id}`) behind the steps of `set`, answering in a task.
    mutating func add<Context>(
        _ endpoint: Endpoint, in set: RouteSet<Context>, _ handler: @escaping @Sendable (Context) async throws -> HTTPResponse
    ) {
        let context = set.context
        add(endpoint, set, RouteEntry(steps: set.steps, responder: .waiting { try await handler(try context($0)) }))
    }

    /// Adds `handler` for `endpoint` behind the steps of `set`, answering without waiting: on the
    /// HTTP thread when no step before it waited.
    mutating func add<Context>(
        _ endpoint: Endpoint, in set: RouteSet<Context>, now handler: @escaping @Sendable (Context) throws -> HTTPResponse
    ) {
        let context = set.context
        add(endpoint, set, RouteEntry(steps: set.steps, responder: .immediate { try handler(try context($0)) }))
    }

    private mutating func add<Context>(_ endpoint: Endpoint, _ set: RouteSet<Context>, _ entry: RouteEntry) {
        precondition(set.auth == endpoint.auth, "\(endpoint.method.rawValue) \(endpoint.path) is \(endpoint.auth) in the contract")
        add(endpoint.method.rawValue, endpoint.path, entry)
    }

    /// Paths at or under `prefix` (`/auth`: `/auth` and `/auth/...`) that no route has are
    /// refused with the marks of `set`'s steps (such as `no-store`), as its routes' refusals are.
    mutating func mount<Context>(_ prefix: String, _ set: RouteSet<Context>) {
        mounts.append((prefix, set.steps))
        mounts.sort { $0.prefix.count > $1.prefix.count }
    }

    private mutating func add(_ method: String, _ path: String, _ handler: RouteEntry) {
        let segments = Self.segments(of: path)
        let route = Route(pattern: "/" + segments.joined(separator: "/"), segments: segments, handlers: [method: handler])
        if segments.contains(where: { $0.hasPrefix("{") }) {
            if let index = patterns.firstIndex(where: { $0.segments == segments }) {
                patterns[index].handlers[method] = handler
            } else {
                patterns.append(route)
            }
        } else {
            exact[Self.canonical(path), default: route].handlers[method] = handler
        }
    }

    /// Every route as `(method, path)`, for the OpenAPI check and docs.
    public var routes: [(method: String, path: String)] {
        let all = exact.values.map { $0 } + patterns
        return all.flatMap { route in
            route.handlers.keys.sorted().map { (method: $0, path: route.pattern) }
        }.sorted { ($0.path, $0.method) < ($1.path, $1.method) }
    }

    /// Every route pattern, sorted: the labels a request can be counted under.
    public var routePatterns: [String] { (exact.values.map(\.pattern) + patterns.map(\.pattern)).sorted() }

    /// The route for a request: its pattern, parameters and handler, or the error to answer with.
    func match(method: String, path: String) -> Match {
        let lookup = method == "HEAD" ? "GET" : method
        if let route = exact[Self.canonical(path)] {
            return Self.pick(route, lookup, [:])
        }
        let segments = Self.segments(of: path)
        for route in patterns where route.segments.count == segments.count {
            var parameters: [String: String] = [:]
            var matched = true
            for (pattern, segment) in zip(route.segments, segments) {
                if pattern.hasPrefix("{") {
                    parameters[String(pattern.dropFirst().dropLast())] = segment
                } else if pattern != segment {
                    matched = false
                    break
                }
            }
            if matched { return Self.pick(route, lookup, parameters) }
        }
        let mount = mounts.first { path == $0.prefix || path.hasPrefix($0.prefix + "/") }
        return Match(pattern: nil, parameters: [:], entry: .failure(.notFound), refusalSteps: mount?.steps ?? [])
    }

    private static func pick(_ route: Route, _ method: String, _ parameters: [String: String]) -> Match {
        if let handler = route.handlers[method] { return Match(pattern: route.pattern, parameters: parameters, entry: .success(handler), refusalSteps: []) }
        var allowed = route.handlers.keys.sorted()
        if allowed.contains("GET") { allowed.append("HEAD") }
        let steps = route.handlers[allowed[0]]?.steps ?? []
        return Match(pattern: route.pattern, parameters: parameters, entry: .failure(.methodNotAllowed(allowed)), refusalSteps: steps)
    }

    private static func canonical(_ path: String) -> String {
        path.utf8.count > 1 && path.utf8.last == 0x2F ? String(path.dropLast()) : path
    }

    private static func segments(of path: String) -> [String] {
        canonical(path).split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
