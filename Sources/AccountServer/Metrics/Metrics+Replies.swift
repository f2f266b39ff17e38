import AccountCore
import HTTPServer

extension Metrics {
    /// Counts one answered request under its route pattern (`nil`: no route's path matched), and
    /// a `429` with `Retry-After` as `rate_limited` (`too_many_attempts` has no `Retry-After`);
    /// called once per request by ``AccountApp/handle(_:)`` and the inline path. Login and refresh
    /// outcomes are recorded by the operations (``MetricsSink``).
    ///
    /// `table` is the one ``track(patterns:)`` returned, which the app keeps at hand.
    func recordReply(
        _ request: HTTPRequest, _ response: HTTPResponse, route pattern: String?, in table: RouteTable,
        since started: ContinuousClock.Instant
    ) {
        table.record(method: request.method, pattern: pattern, status: response.status, duration: started.duration(to: .now))
        if response.status == 429 && response.headers["Retry-After"] != nil { rateLimitedReply() }
    }
}
