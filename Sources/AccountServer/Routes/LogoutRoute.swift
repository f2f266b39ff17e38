import AccountAPI
import AccountCore
import HTTPServer

extension SessionRoutes {
    /// `POST /auth/logout?scope=local|others|global`: ends this session, every other one, or all.
    func logOut(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let raw = context.base.request.query["scope"] ?? LogoutScope.local.rawValue
        guard let scope = LogoutScope(rawValue: raw) else {
            throw APIError.invalidRequest(LocalizedText(
                en: "scope must be local, others or global.", ko: "scope는 local, others, global 중 하나여야 합니다."))
        }
        try await operations.logOut(scope, of: context.caller)
        return .noContent
    }

    private var operations: LogoutOperations { services.logoutOperations }
}
