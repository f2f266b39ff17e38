import AccountStore
import Foundation
import TestSupport
import Testing
@testable import AccountStorePostgres
@testable import AccountStoreSQLite

/// A database from before refresh tokens remembered their client (schema version 3), with a used
/// and an unused token, upgraded by `migrate`: the old rows read back with no client, and both
/// kinds of token are used as before.
@Suite struct RefreshTokenClientMigrationTests {
    /// Rows written with the version-3 columns only, the way that build wrote them.
    static func oldRows(placeholder: (Int) -> String) -> String {
        let user = "00000000-0000-4000-8000-000000000001"
        let session = "00000000-0000-4000-8000-000000000002"
        return """
            INSERT INTO users (id, username, username_key, email, email_key, password_hash, mbti, email_verified, created_at, updated_at)
                VALUES ('\(user)', 'Mina', 'mina', 'mina@example.com', 'mina@example.com', 'x', 'INTJ', \(placeholder(1)), 1700000000123, 1700000000123);
            INSERT INTO sessions (id, user_id, created_at, last_used_at, expires_at, user_agent, revoked_at)
                VALUES ('\(session)', '\(user)', 1700000000123, 1700000000123, 1800000000123, 'Old/1.0', NULL);
            INSERT INTO refresh_tokens (hash, session_id, issued_at, used_at) VALUES (\(placeholder(2)), '\(session)', 1700000000123, 1700000005123);
            INSERT INTO refresh_tokens (hash, session_id, issued_at, used_at) VALUES (\(placeholder(3)), '\(session)', 1700000000123, NULL);
            """
    }

    static func checkUpgraded(_ store: any AccountStore) async throws {
        let used = try #require(try await store.read { try $0.refreshToken(hash: Fixture.hash(2)) })
        #expect(used.usedAt == Fixture.time(5))
        #expect(used.usedBy == nil)
        let unused = try #require(try await store.read { try $0.refreshToken(hash: Fixture.hash(3)) })
        #expect(unused.usedAt == nil && unused.usedBy == nil)
        // The unused one is used once, now with its client; the used one stays used.
        #expect(try await store.write { try $0.markRefreshTokenUsed(hash: Fixture.hash(3), at: Fixture.time(9), client: [7, 7]) })
        #expect(try await store.read { try $0.refreshToken(hash: Fixture.hash(3))?.usedBy } == [7, 7])
        #expect(try await store.write { try $0.markRefreshTokenUsed(hash: Fixture.hash(2), at: Fixture.time(9), client: [7, 7]) } == false)
        #expect(try await store.read { try $0.refreshToken(hash: Fixture.hash(2))?.usedBy } == .some(nil))
    }

    @Test func sqliteVersion3Upgrades() async throws {
        try await TemporaryDatabase.with { path in
            do {
                let connection = try Connection(path: path, role: .writer)
                try connection.executeScript("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
                for (index, step) in Migrations.steps.prefix(3).enumerated() {
                    try connection.executeScript(step)
                    try connection.executeScript("INSERT INTO schema_migrations VALUES (\(index + 1), '2026-01-01T00:00:00Z')")
                }
                try connection.executeScript(Self.oldRows { $0 == 1 ? "1" : "X'\(Self.hex(Fixture.hash(UInt8($0))))'" })
            }
            let store = try SQLiteAccountStore(path: path)
            #expect(try await store.migrate() == SQLiteAccountStore.schemaVersion)
            try await Self.checkUpgraded(store)
            await store.close()
        }
    }

    @Test(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
    func postgresVersion3Upgrades() async throws {
        try await PostgresTestServer.withDatabase { url in
            let script = OlderPostgresSchema.script(steps: 3)
                + Self.oldRows { $0 == 1 ? "TRUE" : "'\\x\(Self.hex(Fixture.hash(UInt8($0))))'::bytea" }
            try await PostgresTestServer.psql(url, script)
            let store = try PostgresAccountStore(url: url, poolSize: 1)
            #expect(try await store.migrate() == PostgresAccountStore.schemaVersion)
            try await Self.checkUpgraded(store)
            await store.close()
        }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
