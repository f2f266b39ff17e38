import AccountAPI
import HTTPServer

extension AccountApp {
    /// `GET /auth/policy`: the rules and limits clients show and check before sending.
    func showPolicy(_ context: RequestContext) async throws -> HTTPResponse {
        try .json(policy)
    }

    /// `GET /.well-known/jwks.json`: the public keys that verify access tokens.
    func showKeys(_ context: RequestContext) async throws -> HTTPResponse {
        var response = try HTTPResponse.json(try await keys.current(now: context.now).jwks)
        // Short enough that a rotated key reaches verifiers well before tokens it signed do.
        response.headers.set("Cache-Control", "public, max-age=300")
        return response
    }

    /// `GET /healthz`: 200 while the process runs.
    func health(_ context: RequestContext) async throws -> HTTPResponse {
        try .json(["status": "ok"])
    }

    /// `GET /readyz`: 200 when the database answers, else 503.
    func readiness(_ context: RequestContext) async throws -> HTTPResponse {
        do {
            try await store.ping()
        } catch {
            throw APIError.serviceUnavailable(retryAfter: 1)
        }
        return try .json(["status": "ready"])
    }
}
