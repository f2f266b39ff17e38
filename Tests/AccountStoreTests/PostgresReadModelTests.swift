import AccountStore
import AccountStoreCache
import AccountStorePostgres
import Foundation
import TestSupport
import Testing

/// The cache in front of a PostgreSQL store (``CachingAccountStore`` with a
/// ``PostgresChangeFeed``): the shared behaviours and races with it on, and two stores (two
/// servers) on one database, where a change committed by one is seen by the other's next lookup
/// (`exact`) or once its notification arrived (`notified`). One case at a time: each store holds a
/// listening connection besides its pool, and the test cluster is shared by every suite.
@Suite(.serialized, .enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct PostgresReadModelTests {
    func store(_ url: String, _ freshness: PostgresChangeFeed.Freshness = .exact) async throws -> CachingAccountStore {
        let postgres = try PostgresAccountStore(url: url, poolSize: 2)
        try await postgres.migrate()
        return CachingAccountStore(postgres, capacity: 100) { postgres.changeFeed(reportingTo: $0, freshness: freshness) }
    }

    /// Waits until the store's listener is caught up (its first heartbeat came back).
    func caughtUp(_ store: CachingAccountStore) async throws {
        try await eventually("the listener caught up") { store.readModelCounts?.listenerCaughtUp == true }
    }

    @Test(arguments: StoreConformance.behaviours)
    func conformsWithTheModelOn(_ behaviour: Behaviour) async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try await store(url)
            try await behaviour.check(store)
            await store.close()
        }
    }

    @Test(arguments: StoreRaces.all)
    func racesWithTheModelOnBothServers(_ race: Race) async throws {
        try await PostgresTestServer.withDatabase { url in
            let (a, b) = (try await store(url), try await store(url))
            try await StoreRaces.run(race, a, b)
            await a.close()
            await b.close()
        }
    }

    /// Fifty sessions, each held by B, revoked through A: B's next lookup after A's write
    /// returned says revoked every time, and the one before answered from memory.
    @Test func exactLookupsSeeTheOtherServersCommitAtOnce() async throws {
        try await PostgresTestServer.withDatabase { url in
            let (a, b) = (try await store(url), try await store(url))
            try await caughtUp(b)
            let user = Fixture.user("exact")
            try await a.write { try $0.insertUser(user) }
            for round in 0..<50 {
                let session = Fixture.session(of: user)
                try await a.write { try $0.insertSession(session) }
                _ = try await b.sessionWithUser(id: session.id)
                let hits = b.readModelCounts?.hits ?? 0
                #expect(try await b.sessionWithUser(id: session.id)?.session.revokedAt == nil)
                #expect(b.readModelCounts?.hits == hits + 1, "answered from memory")
                try await a.write { _ = try $0.revokeSession(id: session.id, at: Fixture.time(round)) }
                #expect(try await b.sessionWithUser(id: session.id)?.session.revokedAt == Fixture.time(round))
            }
            #expect((b.readModelCounts?.notifications ?? 0) >= 50)
            await a.close()
            await b.close()
        }
    }

    /// With `notified`, the same revocations are seen once their notification arrived: printed
    /// (how many lookups right after the write still answered the live session, and the longest
    /// wait), and never later than the listener's bound, after which it would stop trusting.
    @Test func notifiedLookupsSeeTheOtherServersCommitWithinTheBound() async throws {
        try await PostgresTestServer.withDatabase { url in
            let (a, b) = (try await store(url), try await store(url, .notified))
            try await caughtUp(b)
            let user = Fixture.user("notified")
            try await a.write { try $0.insertUser(user) }
            var late = 0
            var longest = Duration.zero
            for round in 0..<50 {
                let session = Fixture.session(of: user)
                try await a.write { try $0.insertSession(session) }
                _ = try await b.sessionWithUser(id: session.id)
                try await a.write { _ = try $0.revokeSession(id: session.id, at: Fixture.time(round)) }
                let written = ContinuousClock.now
                if try await b.sessionWithUser(id: session.id)?.session.revokedAt == nil {
                    late += 1
                    while try await b.sessionWithUser(id: session.id)?.session.revokedAt == nil {
                        #expect(ContinuousClock.now - written < .milliseconds(1200), "past the bound")
                        if ContinuousClock.now - written > .seconds(3) { break }
                    }
                }
                longest = max(longest, ContinuousClock.now - written)
            }
            print("notified read model: \(late) of 50 lookups right after the other store's revocation answered the live session; the longest until revoked \(longest)")
            await a.close()
            await b.close()
        }
    }

    /// A refresh through A from a new address reaches the session B holds (the trigger announces
    /// a changed address); B's next exact lookup answers the new one every time.
    @Test func aRefreshFromANewAddressReachesTheOtherServer() async throws {
        try await PostgresTestServer.withDatabase { url in
            let (a, b) = (try await store(url), try await store(url))
            try await caughtUp(b)
            let user = Fixture.user("address")
            let session = Fixture.session(of: user, clientAddress: "192.0.2.1")
            let opened = session
            try await a.write { tx in
                try tx.insertUser(user)
                try tx.insertSession(opened, refresh: SessionRefresh(generation: 0, tokenHash: Fixture.hash(0)))
            }
            for round in 1...20 {
                _ = try await b.sessionWithUser(id: session.id)
                let address = "198.51.100.\(round)"
                let next = SessionRefresh(generation: Int64(round), tokenHash: Fixture.hash(UInt8(round)))
                #expect(try await a.write {
                    try $0.rotateRefresh(sessionID: opened.id, from: Int64(round - 1), to: next, at: Fixture.time(round), clientAddress: address)
                })
                #expect(try await b.sessionWithUser(id: session.id)?.session.clientAddress == address)
            }
            await a.close()
            await b.close()
        }
    }

    /// An account changed through A reaches every session of it that B holds.
    @Test func accountChangesReachEverySessionHeld() async throws {
        try await PostgresTestServer.withDatabase { url in
            let (a, b) = (try await store(url), try await store(url))
            try await caughtUp(b)
            let user = Fixture.user("account")
            let sessions = [Fixture.session(of: user), Fixture.session(of: user)]
            try await a.write { tx in
                try tx.insertUser(user)
                for session in sessions { try tx.insertSession(session) }
            }
            for session in sessions { _ = try await b.sessionWithUser(id: session.id) }
            var changed = user
            changed.mbti = "ESTJ"
            let renamed = changed
            try await a.write { try $0.updateUser(renamed) }
            for session in sessions { #expect(try await b.sessionWithUser(id: session.id)?.user?.mbti == "ESTJ") }
            try await a.write { _ = try $0.setDisabled(userID: user.id, at: Fixture.time(3)) }
            for session in sessions { #expect(try await b.sessionWithUser(id: session.id)?.user?.disabledAt == Fixture.time(3)) }
            try await a.write { _ = try $0.deleteUser(id: user.id) }
            for session in sessions { #expect(try await b.sessionWithUser(id: session.id) == nil) }
            await a.close()
            await b.close()
        }
    }
}
