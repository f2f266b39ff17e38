import AccountStore
import HTTPServer

/// What operators and their tools read: `GET /healthz`, `/readyz` and `/metrics`.
struct OperationsRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.health, in: sets.open, now: health)
        router.add(.readiness, in: sets.open, readiness)
        router.add(.metrics, in: sets.open, showMetrics)
    }

    /// `GET /healthz`: 200 while the process runs.
    func health(_ context: RequestContext) throws -> HTTPResponse {
        try .json(["status": "ok"])
    }

    /// `GET /readyz`: 200 when the database answers, else 503.
    func readiness(_ context: RequestContext) async throws -> HTTPResponse {
        do {
            try await services.store.ping()
        } catch {
            throw APIError.serviceUnavailable(retryAfter: 1)
        }
        return try .json(["status": "ready"])
    }

    /// `GET /metrics`: every metric in the Prometheus text format.
    func showMetrics(_ context: RequestContext) async throws -> HTTPResponse {
        let text = services.metrics.render(hashQueueLength: services.passwords.pool.queueLength, readModel: services.store.readModelCounts)
        return HTTPResponse(
            status: 200, headers: ["Content-Type": PrometheusText.contentType, "Cache-Control": "no-store"],
            body: Array(text.utf8))
    }
}
