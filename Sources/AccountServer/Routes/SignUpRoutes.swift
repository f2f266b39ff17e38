import AccountStore
import HTTPServer

/// Signing up: `POST /auth/signup`, `POST /auth/email/code` and `POST /auth/email/verify`.
struct SignUpRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add("POST", "/auth/signup", in: sets.account, signUp)
        router.add("POST", "/auth/email/code", in: sets.account, requestEmailCode)
        router.add("POST", "/auth/email/verify", in: sets.account, verifyEmail)
    }
}
