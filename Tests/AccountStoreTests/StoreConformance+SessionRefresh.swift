import AccountStore
import Foundation
import Testing

extension StoreConformance {
    /// A session keeps where its refresh tokens stand in its own row: inserted with it, read with
    /// its account, moved on once per generation by one statement.
    static func sessionRefreshState(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let session = Fixture.session(of: mina)
        let older = Fixture.session(of: mina)
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSession(session, refresh: SessionRefresh(generation: 0, tokenHash: Fixture.hash(1)))
            try tx.insertSession(older)
        }
        let found = try #require(try await store.read { try $0.refreshableSession(id: session.id) })
        #expect(found.session == session)
        #expect(found.user == mina)
        #expect(found.refresh == SessionRefresh(generation: 0, tokenHash: Fixture.hash(1), rotatedBy: nil))
        #expect(try await store.read { try $0.refreshableSession(id: UUID()) } == nil)
        // A session without a token of today's layout reads with none.
        #expect(try await store.read { try $0.refreshableSession(id: older.id) }.map { $0.refresh == nil } == true)

        let next = SessionRefresh(generation: 1, tokenHash: Fixture.hash(2), rotatedBy: [9, 9])
        #expect(try await store.write { try $0.rotateRefresh(sessionID: session.id, from: 0, to: next, at: Fixture.time(30), clientAddress: nil) })
        // The generation moved on: a second rotation of generation 0 changes nothing.
        #expect(try await store.write {
            try $0.rotateRefresh(sessionID: session.id, from: 0, to: SessionRefresh(generation: 1, tokenHash: Fixture.hash(3)), at: Fixture.time(31), clientAddress: nil)
        } == false)
        #expect(try await store.write { try $0.rotateRefresh(sessionID: session.id, from: nil, to: next, at: Fixture.time(31), clientAddress: nil) } == false)
        let rotated = try #require(try await store.read { try $0.refreshableSession(id: session.id) })
        #expect(rotated.refresh == next)
        #expect(rotated.session.lastUsedAt == Fixture.time(30))
        #expect(rotated.session.createdAt == session.createdAt && rotated.session.expiresAt == session.expiresAt)
        // What every request reads is unchanged by it.
        #expect(try await store.read { try $0.sessionWithUser(id: session.id) }?.session == rotated.session)

        // The session from before moves on from no generation, once.
        let first = SessionRefresh(generation: 1, tokenHash: Fixture.hash(4), rotatedBy: [8])
        #expect(try await store.write { try $0.rotateRefresh(sessionID: older.id, from: nil, to: first, at: Fixture.time(40), clientAddress: nil) })
        #expect(try await store.write { try $0.rotateRefresh(sessionID: older.id, from: nil, to: first, at: Fixture.time(41), clientAddress: nil) } == false)
        #expect(try await store.read { try $0.refreshableSession(id: older.id) }?.refresh == first)
        #expect(try await store.write { try $0.rotateRefresh(sessionID: UUID(), from: 0, to: next, at: Fixture.time(41), clientAddress: nil) } == false)
    }

    /// Simultaneous rotations of one generation, each in a transaction that first reads the
    /// session (locked where the backend has row locks): exactly one moves it on.
    static func sessionRefreshRace(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let session = Fixture.session(of: mina)
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSession(session, refresh: SessionRefresh(generation: 4, tokenHash: Fixture.hash(1)))
        }
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for attempt in 0..<50 {
                group.addTask {
                    try await store.write { tx in
                        guard try tx.refreshableSession(id: session.id)?.refresh?.generation == 4 else { return false }
                        let next = SessionRefresh(generation: 5, tokenHash: Fixture.hash(UInt8(attempt)), rotatedBy: [UInt8(attempt)])
                        return try tx.rotateRefresh(sessionID: session.id, from: 4, to: next, at: Fixture.time(attempt), clientAddress: nil)
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
        let state = try #require(try await store.read { try $0.refreshableSession(id: session.id) }?.refresh)
        #expect(state.generation == 5 && state.rotatedBy.map { Fixture.hash($0[0]) } == state.tokenHash)
    }

    /// Tokens from before are swept as their sessions end for good, and only then.
    static func refreshTokensOfEndedSessions(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let ended = Fixture.session(of: mina, createdAt: Fixture.time(-100 * 24 * 3600))
        let live = Fixture.session(of: mina)
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSession(ended)
            try tx.insertSession(live)
            for seed in UInt8(1)...3 {
                try tx.insertRefreshToken(RefreshTokenRecord(hash: Fixture.hash(seed), sessionID: ended.id, issuedAt: ended.createdAt))
            }
            try tx.insertRefreshToken(RefreshTokenRecord(hash: Fixture.hash(9), sessionID: live.id, issuedAt: live.createdAt))
        }
        #expect(try await store.read { try $0.refreshTokensOfEndedSessions(before: live.createdAt, limit: 10) }.count == 3)
        #expect(try await store.read { try $0.refreshTokensOfEndedSessions(before: live.createdAt, limit: 2) }.count == 2)
        #expect(try await store.read { try $0.refreshTokensOfEndedSessions(before: ended.createdAt, limit: 10) }.isEmpty)
        let hashes = try await store.read { try $0.refreshTokensOfEndedSessions(before: live.createdAt, limit: 10) }
        #expect(Set(hashes) == [Fixture.hash(1), Fixture.hash(2), Fixture.hash(3)])
        #expect(try await store.write { try $0.deleteRefreshTokens(hashes: hashes + [Fixture.hash(7)]) } == 3)
        #expect(try await store.read { try $0.refreshToken(hash: Fixture.hash(1)) } == nil)
        #expect(try await store.read { try $0.refreshToken(hash: Fixture.hash(9)) } != nil)
    }
}
