import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func sessionNeedsUser(_ store: any AccountStore) async throws {
        let ghost = Fixture.user("Ghost")
        await #expect(throws: StoreError.self) {
            try await store.write { try $0.insertSession(Fixture.session(of: ghost)) }
        }
    }

    static func sessions(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let old = Fixture.session(of: mina, createdAt: Fixture.time(0), userAgent: nil)
        let middle = Fixture.session(of: mina, createdAt: Fixture.time(10))
        var newest = Fixture.session(of: mina, createdAt: Fixture.time(20))
        newest.revokedAt = Fixture.time(25)
        let revokedNewest = newest
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSession(middle)
            try tx.insertSession(old)
            try tx.insertSession(revokedNewest)
        }
        #expect(try await store.read { try $0.sessions(userID: mina.id) } == [revokedNewest, middle, old])
        #expect(try await store.read { try $0.session(id: old.id) } == old)

        try await store.write { try $0.touchSession(id: old.id, at: Fixture.time(30)) }
        #expect(try await store.read { try $0.session(id: old.id)?.lastUsedAt } == Fixture.time(30))

        #expect(try await store.write { try $0.revokeSession(id: old.id, at: Fixture.time(40)) })
        #expect(try await store.write { try $0.revokeSession(id: old.id, at: Fixture.time(50)) } == false)
        #expect(try await store.read { try $0.session(id: old.id)?.revokedAt } == Fixture.time(40))

        let another = Fixture.session(of: mina, createdAt: Fixture.time(60))
        try await store.write { try $0.insertSession(another) }
        // Live now: middle and another. Keep `another`.
        #expect(try await store.write { try $0.revokeSessions(userID: mina.id, except: another.id, at: Fixture.time(70)) } == 1)
        let after = try await store.read { try $0.sessions(userID: mina.id) }
        #expect(after.map(\.revokedAt) == [nil, Fixture.time(25), Fixture.time(70), Fixture.time(40)])
        #expect(try await store.write { try $0.revokeSessions(userID: mina.id, except: nil, at: Fixture.time(80)) } == 1)
        #expect(try await store.read { try $0.session(id: another.id)?.revokedAt } == Fixture.time(80))
    }

    static func refreshTokens(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let session = Fixture.session(of: mina)
        let token = RefreshTokenRecord(hash: Fixture.hash(7), sessionID: session.id, issuedAt: Fixture.time())
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSession(session)
            try tx.insertRefreshToken(token)
        }
        #expect(try await store.read { try $0.refreshToken(hash: Fixture.hash(7)) } == token)
        #expect(try await store.read { try $0.refreshToken(hash: Fixture.hash(8)) } == nil)

        #expect(try await store.write { try $0.markRefreshTokenUsed(hash: Fixture.hash(7), at: Fixture.time(5)) })
        #expect(try await store.write { try $0.markRefreshTokenUsed(hash: Fixture.hash(7), at: Fixture.time(6)) } == false)
        #expect(try await store.write { try $0.markRefreshTokenUsed(hash: Fixture.hash(8), at: Fixture.time(6)) } == false)
        #expect(try await store.read { try $0.refreshToken(hash: Fixture.hash(7))?.usedAt } == Fixture.time(5))

        await #expect(throws: StoreError.self) {
            try await store.write { try $0.insertRefreshToken(token) }
        }
    }

    static func refreshTokenRace(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let session = Fixture.session(of: mina)
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertSession(session)
            try tx.insertRefreshToken(RefreshTokenRecord(hash: Fixture.hash(9), sessionID: session.id, issuedAt: Fixture.time()))
        }
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for attempt in 0..<50 {
                group.addTask {
                    try await store.write { try $0.markRefreshTokenUsed(hash: Fixture.hash(9), at: Fixture.time(attempt)) }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
    }
}
