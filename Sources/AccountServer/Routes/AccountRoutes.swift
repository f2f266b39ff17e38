import AccountAPI
import AccountStore
import Foundation
import HTTPServer

extension AccountApp {
    /// `GET /auth/sessions`: the caller's live sessions, newest first, the current one marked.
    func listSessions(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let (userID, now) = (context.userID, context.now)
        let sessions = try await store.read { try $0.sessions(userID: userID) }
            .filter { $0.revokedAt == nil && self.isLive($0, now: now) }
            .map { SessionInfo(id: $0.id, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, userAgent: $0.userAgent, current: $0.id == context.sessionID) }
        return try .json(SessionList(sessions: sessions))
    }

    /// `DELETE /auth/sessions/{id}`: ends one of the caller's sessions; anyone else's is 404.
    func revokeSession(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        guard let id = context.base.parameters["id"].flatMap(UUID.init(uuidString:)) else { throw APIError.notFound }
        let (userID, now) = (context.userID, context.now)
        let found = try await store.write { tx -> Bool in
            guard let session = try tx.session(id: id), session.userID == userID, session.revokedAt == nil else { return false }
            try tx.revokeSession(id: id, at: now)
            return true
        }
        guard found else { throw APIError.notFound }
        return .noContent
    }

    /// `DELETE /auth/me`: with the password; the account, its sessions and codes are gone, and its
    /// nickname and address are free again.
    ///
    /// The password is checked under the account's login back-off; a wrong one is
    /// `403 invalid_credentials`.
    func deleteAccount(_ context: AuthenticatedContext) async throws -> HTTPResponse {
        let body = try context.base.decodeBody(DeleteAccountRequest.self)
        guard let password = body.password, !password.isEmpty else { throw APIError.validation("password", .required) }
        let userID = context.userID
        guard let user = try await store.read({ try $0.user(id: userID) }) else { throw APIError.sessionRevoked }
        try await checkCallersPassword(password, of: user, context, via: "account_delete")
        // The store removes sessions, refresh tokens and every code of the address with it.
        _ = try await store.write { tx in
            try tx.deleteUser(id: userID)
            try self.clearLoginThrottle(key: Self.throttleKey(userID: userID), in: tx)
        }
        context.audit(.accountDeleted)
        return .noContent
    }
}
