import AccountCore
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
        switch await operations.readiness() {
        case .ready: return try .json(["status": "ready"])
        case .databaseUnreachable: throw APIError.serviceUnavailable(retryAfter: 1)
        }
    }

    /// `GET /metrics`: every metric in the Prometheus text format.
    func showMetrics(_ context: RequestContext) async throws -> HTTPResponse {
        let text = operations.metricsText()
        return HTTPResponse(
            status: 200, headers: ["Content-Type": PrometheusText.contentType, "Cache-Control": "no-store"],
            body: Array(text.utf8))
    }

    private var operations: ProbeOperations { services.probeOperations }
}
