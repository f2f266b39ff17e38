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
}
