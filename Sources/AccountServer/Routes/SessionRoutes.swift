import AccountAPI
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
        let (userID, now, policy) = (context.userID, context.now, services.sessions.policy)
        let sessions = try await services.store.read { try $0.sessions(userID: userID) }
            .filter { $0.revokedAt == nil && policy.isLive($0, now: now) }
            .map {
                SessionInfo(
                    id: $0.id, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, userAgent: $0.userAgent,
                    current: $0.id == context.sessionID, clientAddress: $0.clientAddress)
            }
        return try .json(SessionList(sessions: sessions))
    }

    /// `DELETE /auth/sessions/{id}`: ends one of the caller's sessions; anyone else's is 404.
    func revokeSession(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        guard let id = context.base.parameters["id"].flatMap(UUID.init(uuidString:)) else { throw APIError.notFound }
        let (userID, now, origin) = (context.userID, context.now, context.origin)
        let found = try await services.store.write { tx -> Bool in
            guard let session = try tx.session(id: id), session.userID == userID, session.revokedAt == nil else { return false }
            try tx.revokeSession(id: id, at: now)
            try origin.recordSessionsEnded(1, reason: .ended, userID: userID, at: now, in: tx)
            return true
        }
        guard found else { throw APIError.notFound }
        return .noContent
    }
}
