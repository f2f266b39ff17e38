import AccountStore
import Foundation
import Testing

extension StoreConformance {
    /// A session keeps where its refresh tokens stand in its own row: inserted with it, read with
    /// its account, moved on once per generation by one statement.
    static func sessionRefreshState(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let session = Fixture.session(of: mina)
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSession(session, refresh: SessionRefresh(generation: 0, tokenHash: Fixture.hash(1)))
        }
        let found = try #require(try await store.read { try $0.refreshableSession(id: session.id) })
        #expect(found.session == session)
        #expect(found.user == mina)
        #expect(found.refresh == SessionRefresh(generation: 0, tokenHash: Fixture.hash(1), rotatedBy: nil))
        #expect(try await store.read { try $0.refreshableSession(id: UUID()) } == nil)

        let next = SessionRefresh(generation: 1, tokenHash: Fixture.hash(2), rotatedBy: [9, 9])
        #expect(try await store.write { try $0.rotateRefresh(sessionID: session.id, from: 0, to: next, at: Fixture.time(30), clientAddress: nil) })
        // The generation moved on: a second rotation of generation 0 changes nothing.
        #expect(try await store.write {
            try $0.rotateRefresh(sessionID: session.id, from: 0, to: SessionRefresh(generation: 1, tokenHash: Fixture.hash(3)), at: Fixture.time(31), clientAddress: nil)
        } == false)
        #expect(try await store.write { try $0.rotateRefresh(sessionID: session.id, from: 2, to: next, at: Fixture.time(31), clientAddress: nil) } == false)
        let rotated = try #require(try await store.read { try $0.refreshableSession(id: session.id) })
        #expect(rotated.refresh == next)
        #expect(rotated.session.lastUsedAt == Fixture.time(30))
        #expect(rotated.session.createdAt == session.createdAt && rotated.session.expiresAt == session.expiresAt)
        // What every request reads is unchanged by it.
        #expect(try await store.read { try $0.sessionWithUser(id: session.id) }?.session == rotated.session)

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
                        guard try tx.refreshableSession(id: session.id)?.refresh.generation == 4 else { return false }
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
}
