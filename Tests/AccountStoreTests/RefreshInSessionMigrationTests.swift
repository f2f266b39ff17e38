import AccountStore
import Foundation
import TestSupport
import Testing
@testable import AccountStorePostgres
@testable import AccountStoreSQLite

/// A database from before sessions kept their current refresh token (the schema up to the step
/// `refreshInSession`), with a session on tokens of before (one used, one current), upgraded by
/// `migrate`: the session reads with no refresh state, the tokens of before still read (and are
/// used once), and the session moves on to generations once.
@Suite struct RefreshInSessionMigrationTests {
    static let session = UUID(uuidString: "00000000-0000-4000-8000-000000000002")!

    /// Rows written with the columns of before only, the way that build wrote them.
    static func oldRows(placeholder: (Int) -> String) -> String {
        let user = "00000000-0000-4000-8000-000000000001"
        return """
            INSERT INTO users (id, username, username_key, email, email_key, password_hash, mbti, email_verified, created_at, updated_at)
                VALUES ('\(user)', 'Mina', 'mina', 'mina@example.com', 'mina@example.com', 'x', 'INTJ', \(placeholder(1)), 1700000000123, 1700000000123);
            INSERT INTO sessions (id, user_id, created_at, last_used_at, expires_at, user_agent, revoked_at, amr)
                VALUES ('\(session.uuidString.lowercased())', '\(user)', 1700000000123, 1700000005123, 1800000000123, 'Old/1.0', NULL, 'pwd');
            INSERT INTO refresh_tokens (hash, session_id, issued_at, used_at, used_by)
                VALUES (\(placeholder(2)), '\(session.uuidString.lowercased())', 1700000000123, 1700000005123, \(placeholder(4)));
            INSERT INTO refresh_tokens (hash, session_id, issued_at, used_at, used_by)
                VALUES (\(placeholder(3)), '\(session.uuidString.lowercased())', 1700000005123, NULL, NULL);
            """
    }

    static func checkUpgraded(_ store: any AccountStore) async throws {
        let found = try #require(try await store.read { try $0.refreshableSession(id: session) })
        #expect(found.refresh == nil)
        #expect(found.session.lastUsedAt == Fixture.time(5) && found.session.amr == ["pwd"])
        #expect(found.user.username == "Mina")
        let used = try #require(try await store.read { try $0.refreshToken(hash: Fixture.hash(2)) })
        #expect(used.usedAt == Fixture.time(5) && used.usedBy == Fixture.hash(4))
        #expect(try await store.read { try $0.refreshToken(hash: Fixture.hash(3)) }?.usedAt == .some(nil))
        // The first refresh after the upgrade moves the session on to generation 1, once.
        let first = SessionRefresh(generation: 1, tokenHash: Fixture.hash(7), rotatedBy: [7])
        #expect(try await store.write { try $0.rotateRefresh(sessionID: session, from: nil, to: first, at: Fixture.time(9), clientAddress: nil) })
        #expect(try await store.write { try $0.rotateRefresh(sessionID: session, from: nil, to: first, at: Fixture.time(9), clientAddress: nil) } == false)
        #expect(try await store.read { try $0.refreshableSession(id: session) }?.refresh == first)
    }

    @Test func sqliteUpgrades() async throws {
        try await TemporaryDatabase.with { path in
            do {
                let connection = try Connection(path: path, role: .writer)
                _ = try connection.migrate(upTo: try #require(Migrations.steps.firstIndex(of: Migrations.refreshInSession)))
                try connection.executeScript(Self.oldRows { $0 == 1 ? "1" : "X'\(Self.hex(Fixture.hash(UInt8($0))))'" })
            }
            let store = try SQLiteAccountStore(path: path)
            #expect(try await store.migrate() == SQLiteAccountStore.schemaVersion)
            try await Self.checkUpgraded(store)
            await store.close()
        }
    }

    @Test(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
    func postgresUpgrades() async throws {
        try await PostgresTestServer.withDatabase { url in
            let script = try OlderPostgresSchema.script(before: PGMigrations.refreshInSession)
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
