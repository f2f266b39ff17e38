extension Operation {
    /// What clients and operators read: policy, keys, this document, health and metrics.
    static let discovery: [Operation] = [
        Operation(
            method: "get", path: "/auth/policy", id: "getPolicy", tag: "Discovery", summary: "The rules clients check before sending",
            successes: [.init(status: 200, description: "The policy in force.", schema: Schema.ref("Policy"))]),
        Operation(
            method: "get", path: "/.well-known/jwks.json", id: "getKeys", tag: "Discovery", summary: "The public keys that verify access tokens",
            description: "Cacheable for 5 minutes. After `account-server keys rotate` the old key stays here until its last token has expired.",
            successes: [.init(status: 200, description: "The JWK Set.", schema: Schema.ref("JWKSet"))],
            errors: [503: "`service_unavailable`."]),
        Operation(
            method: "get", path: "/openapi.json", id: "getOpenAPI", tag: "Discovery", summary: "This document",
            successes: [.init(status: 200, description: "OpenAPI 3.1.", schema: ["type": "object"])]),
        Operation(
            method: "get", path: "/healthz", id: "health", tag: "Operations", summary: "Liveness",
            successes: [.init(status: 200, description: "The process runs.", schema: Schema.ref("Status"))]),
        Operation(
            method: "get", path: "/readyz", id: "readiness", tag: "Operations", summary: "Readiness",
            successes: [.init(status: 200, description: "The database answers.", schema: Schema.ref("Status"))],
            errors: [503: "`service_unavailable`: the database does not answer."]),
        Operation(
            method: "get", path: "/metrics", id: "metrics", tag: "Operations", summary: "Prometheus metrics",
            description: """
                Text format 0.0.4: `http_requests_total{route,method,status}`, \
                `http_request_duration_seconds{route}` (histogram), `account_logins_total{outcome}`, \
                `account_refreshes_total{outcome}`, `account_rate_limited_total`, `password_hash_queue_length`. \
                `route` is the route pattern (`/auth/sessions/{id}`), or `unmatched`.
                """,
            successes: [.init(
                status: 200, description: "All metrics.", schema: Schema.string(), mediaType: "text/plain")]),
    ]
}
