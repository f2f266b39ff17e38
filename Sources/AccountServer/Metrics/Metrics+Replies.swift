import AccountCore
import HTTPServer

extension Metrics {
    /// Counts one answered request under its route pattern (`nil`: no route's path matched), and
    /// what its status says; called once per request by ``AccountApp/handle(_:)`` and the inline path.
    ///
    /// Login outcomes come from the reply's status, which says all of them and also covers the
    /// address limit that refuses a login before its handler runs. A `429` with `Retry-After` is
    /// `rate_limited` (`too_many_attempts` has no `Retry-After`).
    ///
    /// `table` is the one ``track(patterns:)`` returned, which the app keeps at hand.
    func recordReply(
        _ request: HTTPRequest, _ response: HTTPResponse, route pattern: String?, in table: RouteTable,
        since started: ContinuousClock.Instant
    ) {
        table.record(method: request.method, pattern: pattern, status: response.status, duration: started.duration(to: .now))
        let rateLimited = response.status == 429 && response.headers["Retry-After"] != nil
        if rateLimited { rateLimitedReply() }
        if pattern == "/auth/mfa/verify", response.status == 200 { login(.mfaVerified) }
        guard pattern == "/auth/login", request.method == "POST" else { return }
        switch response.status {
        case 200: login(.success)
        case 401: login(.invalidCredentials)
        case 403: login(Self.carriesSecondFactorChallenge(response) ? .mfaRequired : .emailNotVerified)
        case 429 where rateLimited: login(.rateLimited)
        default: break
        }
    }

    /// Whether a login's 403 is `mfa_required` (its body has an `mfa_token`) rather than
    /// `email_not_verified`.
    private static func carriesSecondFactorChallenge(_ response: HTTPResponse) -> Bool {
        let member = Array(#""mfa_token""#.utf8)
        return response.body.count >= member.count
            && (0...(response.body.count - member.count)).contains { response.body[$0..<$0 + member.count].elementsEqual(member) }
    }
}
