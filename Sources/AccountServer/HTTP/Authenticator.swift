import AccountStore
import Foundation
import HTTPServer

extension AccountApp {
    /// Wraps a handler that needs a signed-in caller: it runs only with a verified access token
    /// of a live session.
    func authenticated(_ handler: @escaping @Sendable (AuthenticatedContext) async throws -> HTTPResponse) -> Handler {
        { [unowned self] context in try await handler(self.authenticate(context)) }
    }

    /// Verifies `Authorization: Bearer` (scheme in any case; never a query parameter) and that the
    /// token's session is live.
    func authenticate(_ context: RequestContext) async throws -> AuthenticatedContext {
        guard let header = context.request.headers["Authorization"] else {
            throw APIError.tokenInvalid(LocalizedText(en: "Sign in first: the Authorization header is missing.", ko: "먼저 로그인해 주세요. Authorization 헤더가 없습니다."))
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.tokenInvalid(LocalizedText(en: "Use Authorization: Bearer <access token>.", ko: "Authorization: Bearer <액세스 토큰> 형식으로 보내 주세요."))
        }
        let verified = try await tokens.verify(String(parts[1]).trimmingCharacters(in: .whitespaces), now: context.now)
        let session = try await store.read { try $0.session(id: verified.sessionID) }
        guard let session, session.userID == verified.userID, session.revokedAt == nil else {
            throw APIError.sessionRevoked
        }
        guard isLive(session, now: context.now) else { throw APIError.tokenExpired }
        return AuthenticatedContext(base: context, userID: verified.userID, sessionID: verified.sessionID)
    }

    /// Whether a session is within its idle and absolute lifetimes.
    func isLive(_ session: SessionRecord, now: Date) -> Bool {
        now < session.expiresAt && now.timeIntervalSince(session.lastUsedAt) < TimeInterval(configuration.sessionIdleTTL)
    }
}
