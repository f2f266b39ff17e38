import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Sodium

extension SessionRoutes {
    /// What presenting a refresh token came to; decided in the transaction, answered after commit
    /// (a reuse must revoke the session even though the reply is an error).
    private enum Rotation: Sendable {
        case rotated(UserRecord, SessionRecord, issuedAt: Date)
        /// A repeat within the grace window: the same pair as the first use.
        case repeated(UserRecord, SessionRecord, issuedAt: Date)
        /// Used before: after the grace window, or within it by another client.
        case reused(userID: UUID, reason: String)
        case revoked
        case expired
        case unknown
    }

    /// `POST /auth/refresh`: trades a refresh token for a new pair (rotation).
    ///
    /// A token used before revokes its whole session (`refresh_token_reused`), unless it comes
    /// again within the grace window of its first use from the client that used it (same
    /// User-Agent and address): then it gets the same new pair again, so two tabs or a retry after
    /// a lost reply do not log the user out, while a thief replaying it elsewhere does not get in
    /// (RFC 9700 §4.14.2).
    func refresh(_ context: RequestContext) async throws -> HTTPResponse {
        let body = try context.decodeBody(RefreshRequest.self)
        guard let text = body.refresh, !text.isEmpty else { throw APIError.validation("refresh", .required) }
        guard text.utf8.count <= 256 else {
            services.metrics.refresh(.invalid)
            throw APIError.tokenInvalid()
        }
        let presented = RefreshToken(text: text)
        let successor = presented.successor(key: services.secrets.refreshKey)
        let client = ClientFingerprint.of(
            userAgent: context.request.headers["User-Agent"], address: context.clientAddress, key: services.secrets.clientKey)
        let now = context.now
        let grace = TimeInterval(services.configuration.refreshGrace)
        // Only what the body needs: a closure that used `self` would copy every service in.
        let policy = services.sessions.policy

        let outcome = try await services.store.write { tx -> Rotation in
            guard let record = try tx.refreshToken(hash: presented.hash), let session = try tx.session(id: record.sessionID) else {
                return .unknown
            }
            guard session.revokedAt == nil else { return .revoked }
            guard policy.isLive(session, now: now) else { return .expired }
            if let usedAt = record.usedAt {
                // Either side of the first use: a repeat sent at the same moment may carry an
                // earlier time than the use it waited for (or come from a server whose clock is behind).
                guard abs(now.timeIntervalSince(usedAt)) <= grace else {
                    try tx.revokeSession(id: session.id, at: now)
                    return .reused(userID: session.userID, reason: "after_grace")
                }
                // A token used before fingerprints were kept (an upgraded database) has none: it
                // keeps the grace it had, which ends seconds after the upgrade.
                if let usedBy = record.usedBy, !constantTimeEquals(usedBy, client) {
                    try tx.revokeSession(id: session.id, at: now)
                    return .reused(userID: session.userID, reason: "other_client")
                }
                guard let user = try tx.user(id: session.userID) else { return .unknown }
                // Disabling revokes every session; this also stops one opened by a login racing it.
                if user.disabledAt != nil { throw APIError.sessionRevoked }
                return .repeated(user, session, issuedAt: usedAt)
            }
            guard try tx.markRefreshTokenUsed(hash: presented.hash, at: now, client: client) else {
                // Used since our read (a backend that does not lock it on read): the store runs
                // the transaction again, which lands in the grace path above.
                throw StoreError.serializationFailure
            }
            try tx.insertRefreshToken(RefreshTokenRecord(hash: successor.hash, sessionID: session.id, issuedAt: now))
            try tx.touchSession(id: session.id, at: now)
            var live = session
            live.lastUsedAt = now
            guard let user = try tx.user(id: session.userID) else { return .unknown }
            if user.disabledAt != nil { throw APIError.sessionRevoked }  // nothing above is kept
            return .rotated(user, live, issuedAt: now)
        }
        switch outcome {
        case .rotated(let user, let session, let issuedAt), .repeated(let user, let session, let issuedAt):
            if case .repeated = outcome { services.metrics.refresh(.repeated) } else { services.metrics.refresh(.rotated) }
            return .tokenPair(try await services.sessions.tokenPair(user: user, session: session, refresh: successor, issuedAt: issuedAt, now: now))
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
