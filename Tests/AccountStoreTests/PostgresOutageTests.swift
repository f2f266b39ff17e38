import AccountStore
import AccountStorePostgres
import Foundation
import TestSupport
import Testing

/// The database goes away under a running store and comes back: calls fail as unavailable
/// meanwhile, and the same store serves again afterwards. Runs on a cluster of its own, since it
/// stops the server.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct PostgresOutageTests {
    @Test func unavailableWhileDownThenResumesWithoutNewStore() async throws {
        let cluster = try await PrivateCluster.start()
        do {
            try await check(cluster)
        } catch {
            try? await cluster.remove()
            throw error
        }
        try await cluster.remove()
    }

    private func check(_ cluster: PrivateCluster) async throws {
        let store = try PostgresAccountStore(url: cluster.url, poolSize: 2)
        try await store.migrate()
        let mina = Fixture.user("Mina")
        try await store.write { try $0.insertUser(mina) }

        try await cluster.down()
        var failures: [StoreError] = []
        for attempt in 0..<6 {
            do {
                switch attempt % 3 {
                case 0: _ = try await store.read { try $0.userCount() }
                case 1: try await store.write { try $0.insertUser(Fixture.user("Joon\(attempt)")) }
                default: try await store.ping()
                }
            } catch let error as StoreError {
                failures.append(error)
            }
        }
        #expect(failures.count == 6)
        #expect(failures.allSatisfy { if case .unavailable = $0 { true } else { false } })

        try await cluster.up()
        // Every call succeeds, whichever pooled connection takes it: each reconnects on its own.
        for _ in 0..<6 {
            try await store.ping()
            #expect(try await store.read { try $0.user(id: mina.id) } == mina)
        }
        let joon = Fixture.user("Joon")
        try await store.write { try $0.insertUser(joon) }
        #expect(try await store.read { try $0.userCount() } == 2)
        await store.close()
    }
}
