import AccountAPI
import AccountStore
import HTTPServer

extension AccountApp {
    /// `GET /auth/me` answered inside the HTTP event thread, or `nil` to take the ordinary path.
    ///
    /// The most frequent request costs mostly thread hops on the ordinary path (HTTP thread →
    /// task → store thread → task → HTTP thread). When the store reads locally (SQLite), the
    /// token was verified before (cached until it expires) and the per-address count lives in this
    /// process, nothing here can block, so the whole request runs where it arrived. It applies the
    /// same checks in the same order and answers byte for byte what ``ProfileRoutes/me(_:)`` would.
    func inlineProfile(_ request: HTTPRequest) -> HTTPResponse? {
        guard let store = services.inlineReads else { return nil }
        let started = ContinuousClock.now
        let context = makeContext(for: request)
        guard let token = try? Authenticator.bearerToken(context), let verified = services.tokens.alreadyVerified(token, now: context.now) else {
            return nil  // a missing, malformed or new token: the ordinary path verifies or refuses it
        }
        let found: (session: SessionRecord?, user: UserRecord?)?
        do {
            found = try store.readInline { tx in
                (try tx.session(id: verified.sessionID), try tx.user(id: verified.userID))
            }
        } catch {
            return nil  // the ordinary path retries the read and reports any failure
        }
        guard let found else { return nil }  // every inline connection busy
        let response: HTTPResponse
        do {
            // Reading first changed nothing, so the count is still taken before anything is answered.
            try checkLocalAddressLimit(context)
            try services.authenticator.checkSession(found.session, of: verified, now: context.now)
            guard let user = found.user else { throw APIError.sessionRevoked }
            response = .profile(user.wire)
        } catch {
            response = problem(for: error, context)
        }
        return finish(response, for: context, route: "/auth/me", since: started)
    }
}
