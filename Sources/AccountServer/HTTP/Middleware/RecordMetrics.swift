import AccountCore
import HTTPServer

/// Counts every reply under its route pattern (or as unmatched) for `GET /metrics`.
final class RecordMetrics: Middleware {
    let metrics: Metrics
    /// The per-route counters, a constant here so recording reads no shared reference.
    let table: RouteTable

    init(metrics: Metrics, table: RouteTable) {
        (self.metrics, self.table) = (metrics, table)
    }

    func leave(_ response: inout HTTPResponse, _ context: RequestContext) {
        metrics.recordReply(context.request, response, route: context.route, in: table, since: context.started)
    }
}
