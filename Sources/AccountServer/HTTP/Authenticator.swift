import AccountAPI
import AccountStore
import Foundation
import HTTPServer

/// A request whose bearer token was verified and whose session is live, with its account.
///
/// Only ``Authenticator`` makes one: the initializer is private to this file, so a handler that
/// takes it cannot have skipped the check, and the compiler sees to it.
struct AuthenticatedContext: Sendable {
    let base: RequestContext
    /// The signed-in account, read with the session.
    let user: UserRecord
    let sessionID: UUID
    /// How the session was authenticated (the `amr` every access token of it carries).
    let amr: [String]
    var userID: UUID { user.id }
    var now: Date { base.now }
    var language: Language { base.language }

    fileprivate init(base: RequestContext, user: UserRecord, sessionID: UUID, amr: [String]) {
        self.base = base
        self.user = user
        self.sessionID = sessionID
        self.amr = amr
    }
}

/// Checks `Authorization: Bearer` and the token's session before an authenticated handler runs.
///
/// One read (``AccountStore/AccountStore/sessionWithUser(id:)``, from the store's read model when
/// it keeps one and that is exact) gives the session and its account; the handler gets both in
/// its ``AuthenticatedContext``.
struct Authenticator: Sendable {
    let tokens: TokenService
    let store: any AccountStore
    /// How long sessions live.
    let sessions: SessionPolicy

    /// `handler` behind the check: it runs only with a verified access token of a live session.
    func require(_ handler: @escaping @Sendable (AuthenticatedContext) async throws -> HTTPResponse) -> Handler {
        { context in try await handler(self.authenticate(context)) }
    }

    /// `handler` behind the operators' check (`/admin/api/...`): a live session, as ``require(_:)``,
    /// of an account with the admin role, opened with a second factor. The role is read with the
    /// session on every request, so a revoked operator is refused at once.
    func requireOperator(_ handler: @escaping @Sendable (AuthenticatedContext) async throws -> HTTPResponse) -> Handler {
        { context in
            let authenticated = try await self.authenticate(context)
            guard authenticated.user.isAdmin else { throw APIError.adminRequired }
            guard authenticated.amr.contains(where: AuthenticationMethod.secondFactors.contains) else {
                throw APIError.secondFactorRequired
            }
            return try await handler(authenticated)
        }
    }

    /// Verifies `Authorization: Bearer` (scheme in any case; never a query parameter), then reads
    /// the token's session with its account and admits the request if the session is live.
    func authenticate(_ context: RequestContext) async throws -> AuthenticatedContext {
        let verified = try await tokens.verify(try Self.bearerToken(context), now: context.now)
        let sessionID = verified.sessionID
        let found = try await store.sessionWithUser(id: sessionID)
        return try admit(found, of: verified, context)
    }

    /// What the inline `GET /auth/me` read before it counts the request: a token verified before
    /// and its session with the account.
    struct InlineRead {
        fileprivate let verified: TokenService.Verified
        fileprivate let found: (session: SessionRecord, user: UserRecord?)?
    }

    /// The first half of ``authenticate(_:)`` without waiting, for the HTTP thread: the token only
    /// from the verified-token cache, the read only on a connection free right now. `nil` when
    /// either is not at hand (a missing, malformed or new token, a busy or failing store): the
    /// ordinary path then verifies, reads and reports.
    func readInline(_ context: RequestContext, from store: any InlineReadableStore) -> InlineRead? {
        guard let token = try? Self.bearerToken(context), let verified = tokens.alreadyVerified(token, now: context.now) else {
            return nil
        }
        let sessionID = verified.sessionID
        guard let found = try? store.sessionWithUserInline(id: sessionID) else { return nil }
        return InlineRead(verified: verified, found: found)
    }

    /// The second half of ``authenticate(_:)`` for what ``readInline(_:from:)`` read: the same check.
    func admit(_ read: consuming InlineRead, _ context: RequestContext) throws -> AuthenticatedContext {
        try admit(read.found, of: read.verified, context)
    }

    /// The check after the token: its session exists, is the subject's, is not revoked and is
    /// within its lifetimes, and its account exists and is not disabled (disabling revokes every
    /// session too; this also stops one opened by a login that raced it).
    private func admit(
        _ found: consuming (session: SessionRecord, user: UserRecord?)?, of verified: TokenService.Verified, _ context: RequestContext
    ) throws -> AuthenticatedContext {
        guard let found, found.session.userID == verified.userID, found.session.revokedAt == nil else {
            throw APIError.sessionRevoked
        }
        guard sessions.isLive(found.session, now: context.now) else { throw APIError.tokenExpired }
        guard let user = found.user, user.disabledAt == nil else { throw APIError.sessionRevoked }
        return AuthenticatedContext(base: context, user: user, sessionID: verified.sessionID, amr: found.session.amr)
    }

    /// The token of `Authorization: Bearer <token>`; throws `token_invalid` for anything else.
    ///
    /// Byte-level: this runs on every authenticated request, and Foundation's trimming goes
    /// through UTF-16, which costs more than the rest of the check.
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
    ///
    /// On the header's bytes: the cuts fall next to ASCII blanks, so they never split a character.
    static func bearerCredentials(in header: String) -> String? {
        var header = header
        return header.withUTF8 { bytes -> String? in
            guard let value = HeaderBytes.trimmed(bytes[...]),
                let gap = value.firstIndex(where: HeaderBytes.isBlank),
                HeaderBytes.equalsIgnoringCase(value[..<gap], "bearer"),
                let token = HeaderBytes.trimmed(value[gap...])
            else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: token), as: UTF8.self)
        }
    }
}
