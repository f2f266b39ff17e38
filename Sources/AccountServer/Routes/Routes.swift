import HTTPServer

extension AccountApp {
    /// The route table of API.md.
    func makeRouter() -> Router {
        var router = Router()
        router.add("POST", "/auth/signup") { [unowned self] in try await self.signUp($0) }
        router.add("POST", "/auth/email/code") { [unowned self] in try await self.requestEmailCode($0) }
        router.add("POST", "/auth/email/verify") { [unowned self] in try await self.verifyEmail($0) }
        router.add("POST", "/auth/login") { [unowned self] in try await self.logIn($0) }
        router.add("POST", "/auth/refresh") { [unowned self] in try await self.refresh($0) }
        router.add("POST", "/auth/logout", authenticated { [unowned self] in try await self.logOut($0) })
        router.add("GET", "/auth/me", authenticated { [unowned self] in try await self.me($0) })
        router.add("PATCH", "/auth/me", authenticated { [unowned self] in try await self.updateMe($0) })
        router.add("DELETE", "/auth/me", authenticated { [unowned self] in try await self.deleteAccount($0) })
        router.add("GET", "/auth/sessions", authenticated { [unowned self] in try await self.listSessions($0) })
        router.add("DELETE", "/auth/sessions/{id}", authenticated { [unowned self] in try await self.revokeSession($0) })
        router.add("POST", "/auth/password/change", authenticated { [unowned self] in try await self.changePassword($0) })
        router.add("POST", "/auth/password/reset") { [unowned self] in try await self.requestPasswordReset($0) }
        router.add("POST", "/auth/password/reset/confirm") { [unowned self] in try await self.confirmPasswordReset($0) }
        router.add("GET", "/auth/policy") { [unowned self] in try await self.showPolicy($0) }
        router.add("GET", "/.well-known/jwks.json") { [unowned self] in try await self.showKeys($0) }
        router.add("GET", "/healthz") { [unowned self] in try await self.health($0) }
        router.add("GET", "/readyz") { [unowned self] in try await self.readiness($0) }
        router.add("GET", "/openapi.json", openAPIHandler())
        router.add("GET", "/metrics") { [unowned self] in try await self.showMetrics($0) }
        return router
    }
}
