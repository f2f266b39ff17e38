import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func sessionWithUser(_ store: any AccountStore) async throws {
        var named = Fixture.user("Mina")
        named.usernameSkeleton = "mina"
        named.usernameDisplaySkeleton = "mina"
        let mina = named
        let other = Fixture.user("Other")
        var session = Fixture.session(of: mina, userAgent: nil)
        session.revokedAt = Fixture.time(5)
        let revoked = session
        let live = Fixture.session(of: other)
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertUser(other)
            try tx.insertSession(revoked)
            try tx.insertSession(live)
        }
        let found = try #require(try await store.read { try $0.sessionWithUser(id: revoked.id) })
        #expect(found.session == revoked, "a revoked session is still read, for the caller to refuse")
        #expect(found.user == mina)
        let second = try #require(try await store.read { try $0.sessionWithUser(id: live.id) })
        #expect(second.session == live)
        #expect(second.user == other)
        #expect(try await store.read { try $0.sessionWithUser(id: UUID()) } == nil)
        // In a write transaction too, where other reads of a session lock it.
        #expect(try await store.write { try $0.sessionWithUser(id: live.id)?.user } == other)

        _ = try await store.write { try $0.deleteUser(id: other.id) }
        #expect(try await store.read { try $0.sessionWithUser(id: live.id) } == nil, "an account's sessions go with it")
    }
}
