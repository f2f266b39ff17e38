import AccountStore
import HTTPServer

/// Signing up: `POST /auth/signup`, `POST /auth/email/code` and `POST /auth/email/verify`.
struct SignUpRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router) {
        router.add("POST", "/auth/signup", signUp)
        router.add("POST", "/auth/email/code", requestEmailCode)
        router.add("POST", "/auth/email/verify", verifyEmail)
    }
}
