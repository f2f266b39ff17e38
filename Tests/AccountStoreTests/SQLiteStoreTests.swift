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

    /// The conformance suite again, each write checked to have named every account and session
    /// it changed (``ChangeAudit``).
    @Test(arguments: StoreConformance.behaviours)
    func announcesEveryChange(_ behaviour: Behaviour) async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path)
            try await store.migrate()
            try await behaviour.check(ChangeAudit(store))
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
            #expect(throws: unavailable) { try store.readInline { try $0.userCount() } }
        }
    }

    @Test("inline reads run on the caller's thread, see committed writes, and never wait for a connection")
    // Connections open on first need (a store never read inline holds none), up to the limit.
    func inlineReads() async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path, inlineReaders: 2)
            try await store.migrate()
            let mina = Fixture.user("Mina")
            #expect(try store.readInline { try $0.user(id: mina.id) } == .answered(nil))
            try await store.write { try $0.insertUser(mina) }
            #expect(try store.readInline { try $0.user(id: mina.id) } == .answered(mina))
            // Both connections lent out (nested reads): a third asker is told busy at once, not made to wait.
            let nested = try store.readInline { _ in
                try store.readInline { _ in try store.readInline { try $0.userCount() } }
            }
            #expect(nested == .answered(.answered(.busy)))
            // They came back: reads work again, and writes inside them fail.
            #expect(try store.readInline { try $0.userCount() } == .answered(1))
            #expect(throws: StoreError.self) { try store.readInline { try $0.insertUser(Fixture.user("Jun")) } }
            #expect(try await store.read { try $0.userCount() } == 1)
            await store.close()
        }
    }

    @Test("a store without inline readers is always busy, so callers take the ordinary path")
    func noInlineReaders() async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path, inlineReaders: 0)
            try await store.migrate()
            #expect(try store.readInline { try $0.userCount() } == .busy)
            await store.close()
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
