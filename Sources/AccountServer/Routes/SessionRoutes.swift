import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer

/// Sessions: `POST /auth/login`, `/auth/refresh` and `/auth/logout`, `GET /auth/sessions` and
/// `DELETE /auth/sessions/{id}`.
struct SessionRoutes: RouteGroup {
    let services: Services

    func register(on router: inout Router, _ sets: RouteSets) {
        router.add(.logIn, in: sets.signIn, logIn)
        router.add(.refresh, in: sets.account, refresh)
        router.add(.logOut, in: sets.signedIn, logOut)
        router.add(.listSessions, in: sets.signedIn, listSessions)
        router.add(.revokeSession, in: sets.signedIn, revokeSession)
    }

    /// `GET /auth/sessions`: the caller's live sessions, newest first, the current one marked.
    func listSessions(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let sessions = try await operations.liveSessions(of: context.caller).map {
            SessionInfo(
                id: $0.id, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, userAgent: $0.userAgent,
                current: $0.id == context.sessionID, clientAddress: $0.clientAddress)
        }
        return try .json(SessionList(sessions: sessions))
    }

    /// `DELETE /auth/sessions/{id}`: ends one of the caller's sessions; anyone else's is 404.
    func revokeSession(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        guard let id = context.base.parameters["id"].flatMap(UUID.init(uuidString:)) else { throw APIError.notFound }
        switch try await operations.end(id, of: context.caller) {
        case .ended: return .noContent
        case .notFound: throw APIError.notFound
        }
    }

    private var operations: SessionOperations { services.sessionOperations }
}
