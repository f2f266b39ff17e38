import AccountAPI
import AccountStore
import Foundation
import HTTPServer

extension SessionRoutes {
    /// `POST /auth/refresh`: trades a refresh token for a new pair (rotation).
    ///
    /// A token used before revokes its whole session (`refresh_token_reused`), unless it comes
    /// again within the grace window of its first use from the client that used it (same
    /// User-Agent and address): then it gets the same new pair again, so two tabs or a retry after
    /// a lost reply do not log the user out, while a thief replaying it elsewhere does not get in
    /// (RFC 9700 §4.14.2). How it is decided, with one write a rotation: ``RefreshRotation``.
    func refresh(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(RefreshRequest.self)
        guard let text = body.refresh, !text.isEmpty else { throw APIError.validation("refresh", .required) }
        let keys = services.secrets.refreshKeys
        let userAgent = context.request.headers["User-Agent"]
        let rotation = RefreshRotation(
            client: ClientFingerprint.of(userAgent: userAgent, address: context.clientAddress, key: services.secrets.clientKey),
            now: context.now, grace: TimeInterval(services.configuration.refreshGrace), policy: services.sessions.policy, keys: keys,
            userAgent: userAgent, clientAddress: context.clientAddress)

        let outcome: RefreshDecision
        if let token = RefreshToken(text: text, keys: keys) {
            let presented = RefreshRotation.Presented(token, keys: keys)
            outcome = try await services.store.write { try rotation.decide(presented, in: $0) }
        } else {
            // Not a token this server made: refused before the database, with the same reply as
            // an unknown token.
            outcome = .unknown
        }
        switch outcome {
        case .rotated(let user, let session, let refresh, let issuedAt), .repeated(let user, let session, let refresh, let issuedAt):
            if case .repeated = outcome { services.metrics.refresh(.repeated) } else { services.metrics.refresh(.rotated) }
            services.activity.count(.refreshes, at: context.now)
            return .tokenPair(try await services.sessions.tokenPair(user: user, session: session, refreshText: refresh, issuedAt: issuedAt, now: context.now))
        case .reused(let userID, let reason):
            services.metrics.refresh(.reused)
            context.audit(.refreshTokenReused, userID: userID, ["reason": reason])
            throw APIError.refreshTokenReused
        case .revoked:
            services.metrics.refresh(.revoked)
            throw APIError.sessionRevoked
        case .expired:
            services.metrics.refresh(.expired)
            throw APIError.tokenExpired
        case .unknown:
            services.metrics.refresh(.invalid)
            throw APIError.tokenInvalid()
        }
    }
}
