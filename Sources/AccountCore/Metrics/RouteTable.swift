/// The counters of every route pattern, fixed once made: what ``Metrics`` renders and what
/// ``AccountApp`` records each reply into.
package final class RouteTable: Sendable {
    /// Each pattern's counters, with ``Metrics/unmatched`` for requests no route's path matched.
    package let byPattern: [String: RouteMetrics]
    package let unmatched = RouteMetrics()

    package init(patterns: [String]) {
        var byPattern = [Metrics.unmatched: unmatched]
        for pattern in patterns where byPattern[pattern] == nil { byPattern[pattern] = RouteMetrics() }
        self.byPattern = byPattern
    }

    /// Counts one reply under `pattern` (``unmatched`` when it is `nil` or not a route's).
    package func record(method: String, pattern: String?, status: Int, duration: Duration) {
        let route = pattern.flatMap { byPattern[$0] } ?? unmatched
        route.record(method: method, status: status, duration: duration)
    }
}
