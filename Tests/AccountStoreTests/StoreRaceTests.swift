import AccountStore
import AccountStorePostgres
import AccountStoreSQLite
import TestSupport
import Testing

/// ``StoreRaces`` on every backend: SQLite (one store, as one server) and PostgreSQL (two stores
/// on one database, as two servers behind a load balancer).
@Suite struct StoreRaceTests {
    @Test(arguments: StoreRaces.all)
    func sqlite(_ race: Race) async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path)
            try await store.migrate()
            try await StoreRaces.run(race, store, store)
            await store.close()
        }
    }

    @Test(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote), arguments: StoreRaces.all)
    func postgresTwoServers(_ race: Race) async throws {
        try await PostgresTestServer.withDatabase { url in
            let (a, b) = (try PostgresAccountStore(url: url), try PostgresAccountStore(url: url))
            try await a.migrate()
            try await StoreRaces.run(race, a, b)
            await a.close()
            await b.close()
        }
    }
}
