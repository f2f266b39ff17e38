import AccountAPI
import AccountStore
import Foundation
import Sodium

/// What presenting a refresh token came to; decided in the transaction, answered after commit
/// (a reuse must revoke the session even though the reply is an error).
package enum RefreshDecision: Sendable {
    case rotated(UserRecord, SessionRecord, refresh: String, issuedAt: Date)
    /// A repeat within the grace window: the same pair as the first use.
    case repeated(UserRecord, SessionRecord, refresh: String, issuedAt: Date)
    /// Used before: after the grace window, within it by another client, or a generation older
    /// than the one before the current.
    case reused(userID: UUID, reason: String)
    case revoked
    case expired
    case unknown
}

/// One refresh, decided inside the store's write transaction, where the one write of a rotation
/// is made: the session row moves on to the next generation (``StoreTransaction/rotateRefresh``).
///
/// Against the session's row (current generation N, its keyed hash, when it was issued and by
/// which client's use of N - 1):
/// - generation N with the right hash rotates to N + 1;
/// - generation N - 1 whose successor is the current token is a repeat: the same pair for the
///   client that made the rotation, within the grace window either side of it; from another
///   client, or later, it is reuse and revokes the session (RFC 9700 §4.14.2);
/// - an older generation is reuse; a newer one, or a wrong hash, is unknown (`token_invalid`).
///
/// Simultaneous refreshes of one token are decided one after another (the session row is locked,
/// or the store's writes run one at a time): the first rotates, the others are repeats.
package struct RefreshRotation: Sendable {
    /// The presenting client's fingerprint (``ClientFingerprint``).
    package let client: [UInt8]
    package let now: Date
    /// Seconds either side of a rotation in which its client gets the same pair again.
    package let grace: TimeInterval
    package let policy: SessionPolicy
    package let keys: RefreshTokenKeys
    /// The presenting client's `User-Agent` and address, for the security event of a reuse (made
    /// only then: a refresh writes no event); the address is also the session's new one.
    package let userAgent: String?
    package let clientAddress: String

    /// Where the request came from, as a session keeps it (the address cut as ``EventOrigin`` cuts it).
    private var origin: EventOrigin { EventOrigin(clientAddress: clientAddress, userAgent: userAgent) }

    /// A presented token with what the decision needs from it, derived before the
    /// transaction so the store's writer spends no time on hashing.
    package struct Presented: Sendable {
        package let token: RefreshToken
        package let hash: [UInt8]
        package let successor: RefreshToken
        package let successorHash: [UInt8]

        package init(_ token: RefreshToken, keys: RefreshTokenKeys) {
            self.token = token
            hash = token.hash(keys: keys)
            successor = token.successor(keys: keys)
            successorHash = successor.hash(keys: keys)
        }
    }

    /// Decides `presented` in the ledger's transaction; a reuse that ends the session records it
    /// through `ledger`.
    package func decide(_ presented: Presented, in ledger: inout EventLedger) throws -> RefreshDecision {
        let tx = ledger.tx
        guard let found = try tx.refreshableSession(id: presented.token.sessionID) else { return .unknown }
        let state = found.refresh
        if let refusal = refusal(of: found) { return refusal }
        let generation = presented.token.generation
        if generation == state.generation {
            guard constantTimeEquals(presented.hash, state.tokenHash) else { return .unknown }
            return try rotate(found, from: generation, to: presented.successor, hash: presented.successorHash, in: tx)
        }
        if generation == state.generation - 1, constantTimeEquals(presented.successorHash, state.tokenHash) {
            return try repeated(found, usedAt: found.session.lastUsedAt, usedBy: state.rotatedBy, refresh: presented.successor.text, in: &ledger)
        }
        guard generation < state.generation else { return .unknown }
        return try reused(found, reason: "older_generation", in: &ledger)
    }

    /// Why the session cannot be refreshed at all, before anything is written: revoked (or its
    /// account disabled by an operator, which also stops a session a racing login opened), or
    /// past its lifetimes.
    private func refusal(of found: RefreshableSession) -> RefreshDecision? {
        let session = found.session
        guard session.revokedAt == nil, found.user.disabledAt == nil else { return .revoked }
        guard policy.isLive(session, now: now) else { return .expired }
        return nil
    }

    /// The first use of the session's current token: the one write of a refresh.
    private func rotate(_ found: RefreshableSession, from current: Int64, to successor: RefreshToken, hash: [UInt8], in tx: any StoreTransaction) throws -> RefreshDecision {
        let next = SessionRefresh(generation: successor.generation, tokenHash: hash, rotatedBy: client)
        let address = origin.clientAddress
        guard try tx.rotateRefresh(sessionID: found.session.id, from: current, to: next, at: now, clientAddress: address) else {
            // Rotated since our read (a backend that does not lock it on read): the store runs
            // the transaction again, which lands in the repeat.
            throw StoreError.serializationFailure
        }
        var live = found.session
        live.lastUsedAt = now
        live.clientAddress = address
        return .rotated(found.user, live, refresh: successor.text, issuedAt: now)
    }

    /// A token used at `usedAt` by `usedBy`, presented again: the same pair (`refresh`, issued at
    /// `usedAt`) for that client within the window, either side of the use (a repeat sent at the
    /// same moment may carry an earlier time than the use it waited for, or come from a server
    /// whose clock is behind); reuse otherwise. Every rotation keeps its client's fingerprint, so a
    /// generation without one was never rotated and has no repeat.
    private func repeated(
        _ found: RefreshableSession, usedAt: Date, usedBy: [UInt8]?, refresh: String, in ledger: inout EventLedger
    ) throws -> RefreshDecision {
        guard abs(now.timeIntervalSince(usedAt)) <= grace else { return try reused(found, reason: "after_grace", in: &ledger) }
        guard let usedBy, constantTimeEquals(usedBy, client) else { return try reused(found, reason: "other_client", in: &ledger) }
        return .repeated(found.user, found.session, refresh: refresh, issuedAt: usedAt)
    }

    private func reused(_ found: RefreshableSession, reason: String, in ledger: inout EventLedger) throws -> RefreshDecision {
        if try ledger.tx.revokeSession(id: found.session.id, at: now) {
            let source = EventSource(requestID: nil, clientAddress: clientAddress, userAgent: userAgent)
            try ledger.record(DomainEvent(.sessionsEnded(count: 1, .refreshTokenReused), userID: found.user.id, at: now, source: source))
        }
        return .reused(userID: found.user.id, reason: reason)
    }
}
