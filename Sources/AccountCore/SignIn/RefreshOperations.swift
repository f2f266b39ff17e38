import AccountAPI
import AccountStore
import Foundation

/// Refresh tokens traded for new pairs: rotation, a repeat within the grace window, and reuse.
package struct RefreshOperations {
    package let services: Services

    /// The new pair for the refresh token `text`, or the refusal its state comes to.
    ///
    /// A token used before revokes its whole session (`refresh_token_reused`), unless it comes
    /// again within the grace window of its first use from the client that used it (same
    /// User-Agent and address): then it gets the same new pair again. How it is decided, with one
    /// write a rotation: ``RefreshRotation``.
    package func refresh(_ text: String, caller: Caller) async throws -> TokenPair {
        let keys = services.secrets.refreshKeys
        let (userAgent, now) = (caller.userAgent, caller.now)
        // A caller without an address (the command line) is fingerprinted with an empty one.
        let address = caller.clientAddress ?? ""
        let rotation = RefreshRotation(
            client: ClientFingerprint.of(userAgent: userAgent, address: address, key: services.secrets.clientKey),
            now: now, grace: TimeInterval(services.configuration.refreshGrace), policy: services.sessions.policy, keys: keys,
            userAgent: userAgent, clientAddress: address)

        let outcome: RefreshDecision
        if let token = RefreshToken(text: text, keys: keys) {
            let presented = RefreshRotation.Presented(token, keys: keys)
            outcome = try await services.events.write { _, ledger in try rotation.decide(presented, in: &ledger) }
        } else {
            // Not a token this server made: refused before the database, with the same reply as
            // an unknown token.
            outcome = .unknown
        }
        switch outcome {
        case .rotated(let user, let session, let refresh, let issuedAt), .repeated(let user, let session, let refresh, let issuedAt):
            if case .repeated = outcome { services.events.record(caller.event(.refreshed(.repeated))) } else { services.events.record(caller.event(.refreshed(.rotated))) }
            return try await services.sessions.tokenPair(user: user, session: session, refreshText: refresh, issuedAt: issuedAt, now: now)
        case .reused(let userID, let reason):
            services.events.record(caller.event(.refreshed(.reused), userID: userID, ["reason": reason]))
            throw APIError.refreshTokenReused
        case .revoked:
            services.events.record(caller.event(.refreshed(.revoked)))
            throw APIError.sessionRevoked
        case .expired:
            services.events.record(caller.event(.refreshed(.expired)))
            throw APIError.tokenExpired
        case .unknown:
            services.events.record(caller.event(.refreshed(.invalid)))
            throw APIError.tokenInvalid()
        }
    }
}
