import HTTPServer

extension AccountApp {
    /// `GET /auth/me` answered inside the HTTP event thread, or `nil` to take the ordinary path.
    ///
    /// The most frequent request costs mostly thread hops on the ordinary path (HTTP thread →
    /// task → store thread → task → HTTP thread). When the store reads locally (SQLite), the
    /// token was verified before (cached until it expires) and the per-address count lives in this
    /// process, nothing here can block, so the whole request runs where it arrived. It applies the
    /// same checks in the same order (the authenticator's, in two halves around the per-address
    /// count) and answers with the same function as the ordinary path, ``ProfileRoutes/me(_:from:)``.
    func inlineProfile(_ request: HTTPRequest) -> HTTPResponse? {
        guard let store = services.inlineReads else { return nil }
        let started = ContinuousClock.now
        let context = makeContext(for: request)
        guard let read = services.authenticator.readInline(context, from: store) else { return nil }
        let response: HTTPResponse
        do {
            // Reading first changed nothing, so the count is still taken before anything is answered.
            try checkLocalAddressLimit(context)
            response = ProfileRoutes.me(try services.authenticator.admit(read, context), from: services.profileBodies)
        } catch {
            response = problem(for: error, context)
        }
        return finish(response, for: context, route: "/auth/me", since: started)
    }
}
