import AccountAPI
import HTTPServer

extension SessionRoutes {
    /// `POST /auth/logout?scope=local|others|global`: ends this session, every other one, or all.
    func logOut(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let raw = context.base.request.query["scope"] ?? LogoutScope.local.rawValue
        guard let scope = LogoutScope(rawValue: raw) else {
            throw APIError.invalidRequest(LocalizedText(
                en: "scope must be local, others or global.", ko: "scope는 local, others, global 중 하나여야 합니다."))
        }
        let (userID, sessionID, now, origin) = (context.userID, context.sessionID, context.now, context.origin)
        try await services.store.write { tx in
            switch scope {
            case .local:
                let ended = try tx.revokeSession(id: sessionID, at: now) ? 1 : 0
                try origin.recordSessionsEnded(ended, reason: .logout, userID: userID, at: now, in: tx)
            case .others:
                let ended = try tx.revokeSessions(userID: userID, except: sessionID, at: now)
                try origin.recordSessionsEnded(ended, reason: .logoutOthers, userID: userID, at: now, in: tx)
            case .global:
                let ended = try tx.revokeSessions(userID: userID, except: nil, at: now)
                try origin.recordSessionsEnded(ended, reason: .logoutAll, userID: userID, at: now, in: tx)
            }
        }
        context.audit(.logout, ["scope": scope.rawValue])
        return .noContent
    }
}
