extension Endpoint {
    /// What clients and operators read: policy, keys, this document, health and metrics.
    static let discovery: [Endpoint] = [getPolicy, getKeys, getOpenAPI, health, readiness, metrics]

    /// `GET /auth/policy`: The rules clients check before sending.
    public static let getPolicy = Endpoint(
        .get, "/auth/policy", operationId: "getPolicy", tag: "Discovery", summary: "The rules clients check before sending",
        replies: [.init(status: 200, description: "The policy in force.", body: .schema("Policy"))])

    /// `GET /.well-known/jwks.json`: The public keys that verify access tokens.
    public static let getKeys = Endpoint(
        .get, "/.well-known/jwks.json", operationId: "getKeys", tag: "Discovery", summary: "The public keys that verify access tokens",
        details: "Cacheable for 5 minutes. After `account-server keys rotate` the old key stays here until its last token has expired.",
        replies: [.init(status: 200, description: "The JWK Set.", body: .schema("JWKSet"))],
        errors: [503: "`service_unavailable`."])

    /// `GET /openapi.json`: This document.
    public static let getOpenAPI = Endpoint(
        .get, "/openapi.json", operationId: "getOpenAPI", tag: "Discovery", summary: "This document",
        replies: [.init(status: 200, description: "OpenAPI 3.1.", body: .anyObject)])

    /// `GET /healthz`: Liveness.
    public static let health = Endpoint(
        .get, "/healthz", operationId: "health", tag: "Operations", summary: "Liveness",
        replies: [.init(status: 200, description: "The process runs.", body: .schema("Status"))])

    /// `GET /readyz`: Readiness.
    public static let readiness = Endpoint(
        .get, "/readyz", operationId: "readiness", tag: "Operations", summary: "Readiness",
        replies: [.init(status: 200, description: "The database answers.", body: .schema("Status"))],
        errors: [503: "`service_unavailable`: the database does not answer."])

    /// `GET /metrics`: Prometheus metrics.
    public static let metrics = Endpoint(
        .get, "/metrics", operationId: "metrics", tag: "Operations", summary: "Prometheus metrics",
        details: """
            Text format 0.0.4: `http_requests_total{route,method,status}`, \
            `http_request_duration_seconds{route}` (histogram), `account_logins_total{outcome}`, \
            `account_refreshes_total{outcome}`, `account_rate_limited_total`, `password_hash_queue_length`. \
            `route` is the route pattern (`/auth/sessions/{id}`), or `unmatched`.
            """,
        replies: [.init(
            status: 200, description: "All metrics.", body: .text(mediaType: "text/plain"))])
}
