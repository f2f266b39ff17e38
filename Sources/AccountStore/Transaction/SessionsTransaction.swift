import Foundation

/// A session with its account, as authentication reads them (`user` is `nil` when the account is
/// gone).
public typealias SessionWithUser = (session: SessionRecord, user: UserRecord?)

/// Sessions (`sessions`) and where their refresh tokens stand.
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol SessionsTransaction {
    /// Adds a session with the keyed hash of its first refresh token.
    func insertSession(_ session: SessionRecord, refresh: SessionRefresh) throws
    func session(id: UUID) throws -> SessionRecord?
    /// The session `id` with its account (`nil` if the account is gone), read in one statement:
    /// what every authenticated request needs. Never locks a row, even in a write transaction.
    func sessionWithUser(id: UUID) throws -> SessionWithUser?
    /// Every session of a user, newest first, revoked ones included.
    func sessions(userID: UUID) throws -> [SessionRecord]
    /// Sets `lastUsedAt`.
    func touchSession(id: UUID, at: Date) throws
    /// Revokes one session if it is not revoked yet, forgetting its client address; returns
    /// whether it changed.
    @discardableResult func revokeSession(id: UUID, at: Date) throws -> Bool
    /// Revokes every live session of a user except `except`, forgetting their client addresses;
    /// returns how many changed.
    @discardableResult func revokeSessions(userID: UUID, except: UUID?, at: Date) throws -> Int
    /// Up to `limit` sessions that ended (revoked, past their absolute end at `now`, or unused
    /// since `idleSince`) and still keep a client address, for the sweep that forgets it. A read:
    /// it may scan (no index may name `client_address` or `last_used_at`, which every refresh
    /// writes).
    func endedSessionsWithAddress(now: Date, idleSince: Date, limit: Int) throws -> [UUID]
    /// Forgets the client address of each of these sessions that has ended as
    /// ``endedSessionsWithAddress(now:idleSince:limit:)`` says; returns how many changed.
    @discardableResult func forgetClientAddresses(sessionIDs: [UUID], now: Date, idleSince: Date) throws -> Int

    /// The session `id` with where its refresh tokens stand and its account (`nil` when either is
    /// gone), in one statement; the session row is locked for the rest of a write transaction
    /// where the backend has row locks, so simultaneous refreshes of one session decide one after
    /// another.
    func refreshableSession(id: UUID) throws -> RefreshableSession?
    /// Moves the session's refresh tokens on to `next` and sets its `lastUsedAt` and the
    /// `clientAddress` it was used from, if its current generation is still `current`; returns
    /// whether it did. One statement: of simultaneous rotations of one generation exactly one wins.
    func rotateRefresh(
        sessionID: UUID, from current: Int64, to next: SessionRefresh, at date: Date, clientAddress: String?
    ) throws -> Bool
}

extension SessionsTransaction {
    /// Adds a session whose refresh token nobody holds (its hash is of random bytes), so no
    /// refresh token can refresh it.
    public func insertSession(_ session: SessionRecord) throws {
        var random = SystemRandomNumberGenerator()
        let hash = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        try insertSession(session, refresh: SessionRefresh(generation: 0, tokenHash: hash))
    }
}
