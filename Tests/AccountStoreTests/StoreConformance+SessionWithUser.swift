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

    /// ``AccountStore/sessionWithUser(id:)``, what authentication asks: the same answer as the
    /// transaction's read (one statement on PostgreSQL, the read model when a cache is in front),
    /// asked twice each time, and every write seen by the next call.
    static func storeSessionWithUser(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let sessions = [Fixture.session(of: mina), Fixture.session(of: mina)]
        try await store.write { tx in
            try tx.insertUser(mina)
            for session in sessions { try tx.insertSession(session) }
        }
        func expectBoth(_ id: UUID, _ check: (SessionWithUser?) -> Bool, _ what: String) async throws {
            for _ in 0..<2 {
                #expect(check(try await store.sessionWithUser(id: id)), "\(what)")
                if let inline = store as? any InlineReadableStore, case .answered(let found) = try inline.sessionWithUserInline(id: id) {
                    #expect(check(found), "\(what), inline")
                }
            }
        }
        try await expectBoth(sessions[0].id, { $0?.session == sessions[0] && $0?.user == mina }, "as written")
        try await expectBoth(UUID(), { $0 == nil }, "no such session")
        var changed = mina
        changed.mbti = "ESFP"
        let renamed = changed
        try await store.write { try $0.updateUser(renamed) }
        try await expectBoth(sessions[0].id, { $0?.user?.mbti == "ESFP" }, "a profile change")
        try await store.write { try $0.touchSession(id: sessions[0].id, at: Fixture.time(60)) }
        try await expectBoth(sessions[0].id, { $0?.session.lastUsedAt == Fixture.time(60) }, "a touch")
        try await store.write { _ = try $0.revokeSession(id: sessions[0].id, at: Fixture.time(61)) }
        try await expectBoth(sessions[0].id, { $0?.session.revokedAt == Fixture.time(61) }, "a revocation")
        try await expectBoth(sessions[1].id, { $0?.session.revokedAt == nil }, "the other session")
        try await store.write { _ = try $0.revokeSessions(userID: mina.id, except: nil, at: Fixture.time(62)) }
        try await expectBoth(sessions[1].id, { $0?.session.revokedAt == Fixture.time(62) }, "every session revoked")
        _ = try await store.write { try $0.deleteUser(id: mina.id) }
        try await expectBoth(sessions[1].id, { $0 == nil }, "the account deleted")
    }
}
