import AccountCore
import AccountStore
import HTTPServer

/// Signing up: `POST /auth/signup`, `POST /auth/email/code` and `POST /auth/email/verify`.
struct SignUpRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.signUp, in: sets.account, signUp)
        router.add(.requestEmailCode, in: sets.account, requestEmailCode)
        router.add(.verifyEmail, in: sets.account, verifyEmail)
    }
}
