import AccountStore
import AccountStoreSQLite
import Foundation
import Testing

/// The shared conformance suite and the SQLite-only behaviours, each on its own temporary file.
@Suite struct SQLiteStoreTests {
    @Test(arguments: StoreConformance.behaviours)
    func conforms(_ behaviour: Behaviour) async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path)
            try await store.migrate()
            try await behaviour.check(store)
            await store.close()
        }
    }

    @Test func dataSurvivesCloseAndReopen() async throws {
        try await TemporaryDatabase.with { path in
            let mina = Fixture.user("Mina")
            let first = try SQLiteAccountStore(path: path)
            try await first.migrate()
            try await first.write { try $0.insertUser(mina) }
            await first.close()

            let second = try SQLiteAccountStore(path: path, readers: 1)
            #expect(try await second.migrate() == SQLiteAccountStore.schemaVersion)
            #expect(try await second.read { try $0.user(id: mina.id) } == mina)
            await second.close()
        }
    }

    @Test func initDoesNotMigrate() async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path)
            await #expect(throws: StoreError.self) { try await store.read { try $0.userCount() } }
            #expect(try await store.migrate() == SQLiteAccountStore.schemaVersion)
            #expect(try await store.read { try $0.userCount() } == 0)
            await store.close()
        }
    }

    @Test func unopenablePathIsUnavailable() throws {
        #expect {
            _ = try SQLiteAccountStore(path: "/nonexistent-\(UUID())/account.sqlite")
        } throws: { error in
            if case .unavailable = error as? StoreError { true } else { false }
        }
    }

    @Test func callsAfterCloseAreUnavailable() async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path)
            try await store.migrate()
            await store.close()
            let unavailable = StoreError.unavailable(reason: "store is closed")
            await #expect(throws: unavailable) { try await store.read { try $0.userCount() } }
            await #expect(throws: unavailable) { try await store.write { try $0.userCount() } }
            await #expect(throws: unavailable) { try await store.ping() }
            await #expect(throws: unavailable) { try await store.migrate() }
        }
    }
}

/// A database file in the temporary folder, removed with its WAL files afterwards.
enum TemporaryDatabase {
    static func with(_ body: (String) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("account-store-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        try await body(path)
    }
}
