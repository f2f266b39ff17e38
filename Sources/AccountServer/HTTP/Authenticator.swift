import AccountAPI
import AccountCore
import AccountStore
import Foundation
import HTTPServer

/// What authentication found for a request: the signed-in account, read with its live session.
///
/// Only ``Authenticator`` makes one (the initializer is private to this file), and only it turns
/// one into the ``AuthenticatedContext`` a handler takes. A class, so the context that carries it
/// through the steps copies one reference, not the account's every string.
final class Authentication: Sendable {
    /// The signed-in account, read with the session.
    let user: UserRecord
    let sessionID: UUID
    /// How the session was authenticated (the `amr` every access token of it carries).
    let amr: [String]

    fileprivate init(user: UserRecord, sessionID: UUID, amr: [String]) {
        self.user = user
        self.sessionID = sessionID
        self.amr = amr
    }
}

/// A request whose bearer token was verified and whose session is live, with its account.
///
/// Only ``Authenticator`` makes one: the initializer is private to this file, so a handler that
/// takes it cannot have skipped the check, and the compiler sees to it.
struct AuthenticatedContext: Sendable {
    let base: RequestContext
    /// What authentication found.
    private let authentication: Authentication
    /// The signed-in account, read with the session.
    var user: UserRecord { authentication.user }
    var sessionID: UUID { authentication.sessionID }
    /// How the session was authenticated (the `amr` every access token of it carries).
    var amr: [String] { authentication.amr }
    var userID: UUID { authentication.user.id }
    var now: Date { base.now }
    var language: Language { base.language }

    /// The context of a request the set's ``Authenticator`` step admitted; `nil` for one it did not.
    fileprivate init?(admitted base: RequestContext) {
        guard let authentication = base.authentication else { return nil }
        self.base = base
        self.authentication = authentication
    }

    /// The signed-in request as the operations see it.
    var caller: SignedInCaller {
        SignedInCaller(caller: base.caller, user: authentication.user, sessionID: authentication.sessionID, amr: authentication.amr)
    }
}

/// The first step of every signed-in group: `Authorization: Bearer` verified, and the token's
/// session read with its account and found live.
///
/// One read (``AccountStore/AccountStore/sessionWithUser(id:)``, from the cache's read model when
/// the store has one and that is exact) gives the session and its account. Without waiting when the
/// token was verified before (cached until it expires) and the store can read on this thread
/// right now; else in the task, with the signature checked and the store read on its threads.
final class Authenticator: Middleware {
    let tokens: TokenService
    let store: any AccountStore
    /// The store when it can read on the caller's thread.
    let inlineStore: (any InlineReadableStore)?
    /// How long sessions live.
    let sessions: SessionPolicy

    /// The authenticator of `services`' tokens, store and session policy.
    init(services: Services) {
        tokens = services.tokens
        store = services.store
        inlineStore = services.store as? any InlineReadableStore
        sessions = services.sessions.policy
    }

    func enter(_ context: inout RequestContext) throws -> Readiness {
        let token = try Self.bearerToken(context)
        guard let verified = tokens.alreadyVerified(token, now: context.now),
            case .answered(let found)? = try? inlineStore?.sessionWithUserInline(id: verified.sessionID)
        else { return .mustWait }
        context.authentication = try admit(found, of: verified, context)
        return .done
    }

    func enterWaiting(_ context: inout RequestContext) async throws {
        let verified = try await tokens.verify(try Self.bearerToken(context), now: context.now)
        let found = try await store.sessionWithUser(id: verified.sessionID)
        context.authentication = try admit(found, of: verified, context)
    }

    /// The check after the token: its session exists, is the subject's, is not revoked and is
    /// within its lifetimes, and its account exists and is not disabled (disabling revokes every
    /// session too; this also stops one opened by a login that raced it).
    private func admit(
        _ found: consuming (session: SessionRecord, user: UserRecord?)?, of verified: TokenService.Verified, _ context: RequestContext
    ) throws -> Authentication {
        guard let found, found.session.userID == verified.userID, found.session.revokedAt == nil else {
            throw APIError.sessionRevoked
        }
        guard sessions.isLive(found.session, now: context.now) else { throw APIError.tokenExpired }
        guard let user = found.user, user.disabledAt == nil else { throw APIError.sessionRevoked }
        return Authentication(user: user, sessionID: verified.sessionID, amr: found.session.amr)
    }

    /// The routes of a signed-in account: `before`, then this authentication; their handlers take
    /// the ``AuthenticatedContext`` it yields.
    func signedIn(before: [any Middleware]) -> RouteSet<AuthenticatedContext> {
        routes(.bearer, before + [self])
    }

    /// The operators' routes: `before`, this authentication, then the ``OperatorGate``.
    func operators(before: [any Middleware]) -> RouteSet<AuthenticatedContext> {
        routes(.operator, before + [self, OperatorGate()])
    }

    private func routes(_ auth: Endpoint.Auth, _ steps: [any Middleware]) -> RouteSet<AuthenticatedContext> {
        RouteSet(auth: auth, steps: steps) { context in
            // The set's steps include this authentication, so every request that reaches a
            // handler carries what it found.
            guard let authenticated = AuthenticatedContext(admitted: context) else { throw APIError.internalError }
            return authenticated
        }
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
