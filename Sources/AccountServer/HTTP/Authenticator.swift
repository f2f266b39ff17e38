import AccountStore
import Foundation
import HTTPServer

/// Checks `Authorization: Bearer` and the token's session before an authenticated handler runs.
struct Authenticator: Sendable {
    let tokens: TokenService
    let store: any AccountStore
    /// How long sessions live.
    let sessions: SessionPolicy

    /// `handler` behind the check: it runs only with a verified access token of a live session.
    func require(_ handler: @escaping @Sendable (AuthenticatedContext) async throws -> HTTPResponse) -> Handler {
        { context in try await handler(self.authenticate(context)) }
    }

    /// Verifies `Authorization: Bearer` (scheme in any case; never a query parameter) and that the
    /// token's session is live.
    func authenticate(_ context: RequestContext) async throws -> AuthenticatedContext {
        let verified = try await tokens.verify(try Self.bearerToken(context), now: context.now)
        let session = try await store.read { try $0.session(id: verified.sessionID) }
        try checkSession(session, of: verified, now: context.now)
        return AuthenticatedContext(base: context, userID: verified.userID, sessionID: verified.sessionID)
    }

    /// The token of `Authorization: Bearer <token>`; throws `token_invalid` for anything else.
    ///
    /// Byte-level: this runs on every authenticated request, and Foundation's trimming goes
    /// through UTF-16 (a quarter of a `/auth/me` when measured).
    static func bearerToken(_ context: RequestContext) throws -> String {
        guard let header = context.request.headers["Authorization"] else {
            throw APIError.tokenInvalid(LocalizedText(en: "Sign in first: the Authorization header is missing.", ko: "먼저 로그인해 주세요. Authorization 헤더가 없습니다."))
        }
        guard let token = bearerCredentials(in: header) else {
            throw APIError.tokenInvalid(LocalizedText(en: "Use Authorization: Bearer <access token>.", ko: "Authorization: Bearer <액세스 토큰> 형식으로 보내 주세요."))
        }
        return token
    }

    /// What follows the scheme `Bearer` (any letter case) and blanks, without surrounding blanks.
    static func bearerCredentials(in header: String) -> String? {
        guard let value = HeaderBytes.trimmed(header[...]),
            let gap = value.utf8.firstIndex(where: HeaderBytes.isBlank),
            HeaderBytes.equalsIgnoringCase(value[..<gap], "bearer"),
            let token = HeaderBytes.trimmed(value[gap...])
        else { return nil }
        return String(token)
    }

    /// The second check after the token: its session exists, is the subject's, is not revoked and
    /// is within its lifetimes.
    func checkSession(_ session: SessionRecord?, of verified: TokenService.Verified, now: Date) throws {
        guard let session, session.userID == verified.userID, session.revokedAt == nil else {
            throw APIError.sessionRevoked
        }
        guard sessions.isLive(session, now: now) else { throw APIError.tokenExpired }
    }
}
