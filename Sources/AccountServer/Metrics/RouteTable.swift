/// Maps a request path to the route pattern it matched (`/auth/sessions/{id}`), for metric labels.
///
/// Mirrors ``Router``'s matching (exact paths first, a trailing slash is the same path, `{name}`
/// segments match one segment) so that raw ids never become label values.
struct RouteTable: Sendable {
    /// The label of paths no route knows.
    static let unmatched = "unmatched"

    private let exact: Set<String>
    private let patterns: [(pattern: String, segments: [String])]

    /// Every distinct route pattern, sorted.
    let all: [String]

    init(paths: [String]) {
        let distinct = Set(paths)
        exact = Set(distinct.filter { !$0.contains("{") })
        patterns = distinct.filter { $0.contains("{") }.sorted().map { ($0, Self.segments(of: $0)) }
        all = distinct.sorted()
    }

    /// The pattern `path` matches, or ``unmatched``.
    func pattern(for path: String) -> String {
        let canonical = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        if exact.contains(canonical) { return canonical }
        let segments = Self.segments(of: canonical)
        for route in patterns where route.segments.count == segments.count {
            let matches = zip(route.segments, segments).allSatisfy { pattern, segment in
                pattern.hasPrefix("{") || pattern == segment
            }
            if matches { return route.pattern }
        }
        return Self.unmatched
    }

    private static func segments(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}
