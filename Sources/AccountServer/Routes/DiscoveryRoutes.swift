import AccountAPI
import AccountCore
import HTTPServer

/// What clients read before they sign in: `GET /auth/policy`, `/.well-known/jwks.json` and
/// `/openapi.json`.
struct DiscoveryRoutes: RouteGroup {
    let services: Services
    /// The OpenAPI document, encoded on the first request and kept.
    ///
    /// Encoding it took about a tenth of the server's start-up, which every restart pays and few
    /// processes ever need.
    let openAPIDocument: EncodedOnce

    /// The rules and limits `GET /auth/policy` shows.
    let policy: Policy

    init(services: Services) {
        self.services = services
        policy = Self.policy(for: services.configuration)
        let issuer = services.configuration.issuer
        openAPIDocument = EncodedOnce { try OpenAPIDocument.encoded(issuer: issuer) }
    }

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.getPolicy, in: sets.account, showPolicy)
        router.add(.getKeys, in: sets.open, showKeys)
        router.add(.getOpenAPI, in: sets.open, showOpenAPI)
    }

    /// `GET /auth/policy`: the rules and limits clients show and check before sending.
    func showPolicy(_ context: RequestContext) async throws -> HTTPResponse {
        try .json(policy)
    }

    /// `GET /.well-known/jwks.json`: the public keys that verify access tokens.
    func showKeys(_ context: RequestContext) async throws -> HTTPResponse {
        var response = try HTTPResponse.json(try await services.keys.current(now: context.now).jwks)
        // Short enough that a rotated key reaches verifiers well before tokens it signed do.
        response.headers.set("Cache-Control", "public, max-age=300")
        return response
    }

    /// `GET /openapi.json`: the API's OpenAPI document.
    func showOpenAPI(_ context: RequestContext) async throws -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "public, max-age=300"],
            body: try openAPIDocument.value())
    }

    /// What `GET /auth/policy` shows for `configuration`: the field rules and the limits in force.
    static func policy(for configuration: ServerConfiguration) -> Policy {
        Policy(
            username: .init(minLength: UsernameRule.minLength, maxLength: UsernameRule.maxLength, allowedSymbols: UsernameRule.allowedSymbols),
            email: .init(maxLength: EmailRule.maxLength),
            password: .init(minLength: PasswordRule.minLength, maxLength: PasswordRule.maxLength, refusesCommon: true, refusesSimilar: true),
            mbtiTypes: MBTI.allCases,
            code: .init(length: CodeRule.length, lifetime: configuration.codeTTL, resendCooldown: configuration.mailInterval, maxAttempts: configuration.codeMaxAttempts),
            emailVerificationRequired: !configuration.allowUnverifiedLogin,
            accessTokenLifetime: configuration.accessTTL,
            sessionIdleLifetime: configuration.sessionIdleTTL,
            sessionMaxLifetime: configuration.sessionMaxTTL)
    }
}
