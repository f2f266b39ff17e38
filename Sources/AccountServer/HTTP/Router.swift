import HTTPServer

/// An endpoint: takes the request context and answers or throws an ``APIError``.
public typealias Handler = @Sendable (RequestContext) async throws -> HTTPResponse

/// Maps method and path to handlers; `{name}` segments capture parameters.
///
/// A trailing slash names the same path (the original backend was Django, which used them). A path
/// that exists with other methods answers 405 with `Allow`; others 404. Every match says which
/// route pattern it found, which is how metrics label a request without matching it again.
public struct Router: Sendable {
    private struct Route: Sendable {
        /// The path as registered, without a trailing slash: `/auth/sessions/{id}`.
        let pattern: String
        let segments: [String]
        var handlers: [String: Handler]
    }

    /// What routing a request found.
    public struct Match: Sendable {
        /// The pattern of the route whose path matched (`/auth/sessions/{id}`), also when the
        /// method did not; `nil` when no route has this path.
        public let pattern: String?
        /// The values of the pattern's `{name}` segments.
        public let parameters: [String: String]
        /// The handler for the request's method, or the error to answer with (404, or 405 with `Allow`).
        public let handler: Result<Handler, APIError>
    }

    private var exact: [String: Route] = [:]
    private var patterns: [Route] = []

    public init() {}

    /// Adds `handler` for `method` (upper case) on `path` (like `/auth/sessions/{id}`).
    public mutating func add(_ method: String, _ path: String, _ handler: @escaping Handler) {
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
    public func match(method: String, path: String) -> Match {
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
        return Match(pattern: nil, parameters: [:], handler: .failure(.notFound))
    }

    private static func pick(_ route: Route, _ method: String, _ parameters: [String: String]) -> Match {
        if let handler = route.handlers[method] { return Match(pattern: route.pattern, parameters: parameters, handler: .success(handler)) }
        var allowed = route.handlers.keys.sorted()
        if allowed.contains("GET") { allowed.append("HEAD") }
        return Match(pattern: route.pattern, parameters: parameters, handler: .failure(.methodNotAllowed(allowed)))
    }

    private static func canonical(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    private static func segments(of path: String) -> [String] {
        canonical(path).split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
