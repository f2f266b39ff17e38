import AccountStore
import Foundation
import TestSupport
import Testing
@testable import AccountStorePostgres
@testable import AccountStoreSQLite

/// The migration runners past the baseline: a database at version 1 takes a step a later build
/// appends (and keeps its rows); a database at a version newer than the build is refused; a
/// database made by a build from before the baseline (its own `schema_migrations`, at version 19)
/// is refused with a message that says so, and left as it was.
@Suite struct SchemaUpgradeTests {
    /// A step a later build could append: a new table and a new column.
    static let laterStep = """
        CREATE TABLE later_notes (id TEXT NOT NULL, note TEXT NOT NULL, CONSTRAINT later_notes_pkey PRIMARY KEY (id));
        ALTER TABLE users ADD COLUMN later_note TEXT;
        """

    /// The rows a build from before the baseline recorded: its 19 steps.
    static let preBaselineRecord = "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL);\n"
        + (1...19).map { "INSERT INTO schema_migrations VALUES (\($0), 0);" }.joined(separator: "\n")

    /// A store at version 1 with one account, migrated by a build with one more step.
    static func upgrades(_ store: any AccountStore, to later: ([String]) async throws -> Int, steps: [String]) async throws {
        #expect(try await store.migrate() == 1)
        let mina = Fixture.user("Mina")
        try await store.write { try $0.insertUser(mina) }
        #expect(try await later(steps + [laterStep]) == 2)
        #expect(try await later(steps + [laterStep]) == 2, "a step is applied once")
        #expect(try await store.read { try $0.user(id: mina.id) } == mina)
        #expect(try await store.rowCounts()["later_notes"] == 0)
        #expect(try await store.rowCounts()["schema_version"] == 2)
    }

    /// The build of version 1 on that database.
    static func refusesNewer(_ store: any AccountStore) async throws {
        let error = await #expect(throws: StoreError.self) { try await store.migrate() }
        #expect(error.map { "\($0)" }?.contains("database schema version 2 is newer than this build knows (1)") == true, "\(String(describing: error))")
    }

    static func refusesPreBaseline(_ store: any AccountStore) async throws {
        let error = await #expect(throws: StoreError.self) { try await store.migrate() }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("made by a build from before schema version 1"), "\(text)")
        #expect(text.contains("records version 19") && text.contains("start from a new database"), "\(text)")
        // Nothing was made in it: no version record, no table of the baseline.
        let tables = Set(try await store.rowCounts().keys)
        #expect(tables == ["schema_migrations", "users"], "\(tables)")
    }

    @Test func sqliteTakesAnAppendedStep() async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path)
            try await Self.upgrades(store, to: { try await store.migrate(steps: $0) }, steps: Migrations.steps)
            try await Self.refusesNewer(store)
            await store.close()
        }
    }

    @Test func sqliteRefusesADatabaseFromBeforeTheBaseline() async throws {
        try await TemporaryDatabase.with { path in
            do {
                let connection = try Connection(path: path, role: .writer)
                try connection.executeScript(Self.preBaselineRecord + "\nCREATE TABLE users (id TEXT PRIMARY KEY);")
            }
            let store = try SQLiteAccountStore(path: path)
            try await Self.refusesPreBaseline(store)
            await store.close()
        }
    }

    @Test(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
    func postgresTakesAnAppendedStep() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try PostgresAccountStore(url: url, poolSize: 1)
            try await Self.upgrades(store, to: { try await store.migrate(steps: $0) }, steps: PGMigrations.steps)
            try await Self.refusesNewer(store)
            await store.close()
        }
    }

    @Test(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
    func postgresRefusesADatabaseFromBeforeTheBaseline() async throws {
        try await PostgresTestServer.withDatabase { url in
            try await PostgresTestServer.psql(url, Self.preBaselineRecord + "\nCREATE TABLE users (id TEXT PRIMARY KEY);")
            let store = try PostgresAccountStore(url: url, poolSize: 1)
            try await Self.refusesPreBaseline(store)
            await store.close()
        }
    }
}
