import HTTPServer

extension AccountApp {
    /// `GET /metrics`: every metric in the Prometheus text format.
    func showMetrics(_ context: RequestContext) async throws -> HTTPResponse {
        let text = metrics.render(hashQueueLength: passwords.pool.queueLength)
        return HTTPResponse(
            status: 200, headers: ["Content-Type": PrometheusText.contentType, "Cache-Control": "no-store"],
            body: Array(text.utf8))
    }

    /// Counts one answered request; called once per request by ``handle(_:)``.
    ///
    /// Login outcomes come from the reply's status, which says all of them and also covers the
    /// address limit that refuses a login before its handler runs. A `429` with `Retry-After` is
    /// `rate_limited` (`too_many_attempts` has no `Retry-After`).
    func recordMetrics(_ request: HTTPRequest, _ response: HTTPResponse, route pattern: String?, since started: ContinuousClock.Instant) {
        metrics.recordRequest(method: request.method, pattern: pattern, status: response.status, duration: started.duration(to: .now))
        let rateLimited = response.status == 429 && response.headers["Retry-After"] != nil
        if rateLimited { metrics.rateLimitedReply() }
        guard pattern == "/auth/login", request.method == "POST" else { return }
        switch response.status {
        case 200: metrics.login(.success)
        case 401: metrics.login(.invalidCredentials)
        case 403: metrics.login(.emailNotVerified)
        case 429 where rateLimited: metrics.login(.rateLimited)
        default: break
        }
    }
}
