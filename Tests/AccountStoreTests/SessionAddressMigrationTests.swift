import AccountStore
import Foundation
import TestSupport
import Testing
@testable import AccountStorePostgres
@testable import AccountStoreSQLite

/// A database from before sessions kept their client address (the schema up to the step before
/// `sessionClientAddress`), with a live session, upgraded by `migrate`: the session reads with no
/// address, keeps everything else, and its next refresh records one. On PostgreSQL the replaced
/// read-model trigger is in place (a listener trusts the model only then).
@Suite struct SessionAddressMigrationTests {
    static let user = UUID(uuidString: "00000000-0000-4000-8000-0000000000a1")!
    static let session = UUID(uuidString: "00000000-0000-4000-8000-0000000000a2")!

    /// A session row written with the columns of before only, the way that build wrote them.
    static func oldRows(verified: String) -> String {
        """
        INSERT INTO users (id, username, username_key, email, email_key, password_hash, mbti, email_verified, created_at, updated_at)
            VALUES ('\(user.uuidString.lowercased())', 'Mina', 'mina', 'mina@example.com', 'mina@example.com', 'x', 'INTJ', \(verified), 1700000000123, 1700000000123);
        INSERT INTO sessions (id, user_id, created_at, last_used_at, expires_at, user_agent, revoked_at, amr, refresh_generation, refresh_hash, refreshed_by)
            VALUES ('\(session.uuidString.lowercased())', '\(user.uuidString.lowercased())', 1700000000123, 1700000005123, 1800000000123, 'Old/1.0', NULL, 'pwd otp', 0, NULL, NULL);
        """
    }

    static func checkUpgraded(_ store: any AccountStore) async throws {
        let found = try #require(try await store.read { try $0.session(id: session) })
        #expect(found.clientAddress == nil)
        #expect(found.userAgent == "Old/1.0" && found.amr == ["pwd", "otp"] && found.lastUsedAt == Fixture.time(5))
        #expect(try await store.sessionWithUser(id: session)?.session.clientAddress == .some(nil))
        let next = SessionRefresh(generation: 1, tokenHash: Fixture.hash(7), rotatedBy: [7])
        #expect(try await store.write { try $0.rotateRefresh(sessionID: session, from: 0, to: next, at: Fixture.time(9), clientAddress: "203.0.113.9") })
        #expect(try await store.sessionWithUser(id: session)?.session.clientAddress == "203.0.113.9")
        #expect(try await store.read { try $0.sessions(userID: user) }.map(\.clientAddress) == ["203.0.113.9"])
    }

    @Test func sqliteUpgrades() async throws {
        try await TemporaryDatabase.with { path in
            do {
                let connection = try Connection(path: path, role: .writer)
                _ = try connection.migrate(upTo: try #require(Migrations.steps.firstIndex(of: Migrations.sessionClientAddress)))
                try connection.executeScript(Self.oldRows(verified: "1"))
            }
            let store = try SQLiteAccountStore(path: path, readModel: 10)
            #expect(try await store.migrate() == SQLiteAccountStore.schemaVersion)
            try await Self.checkUpgraded(store)
            await store.close()
        }
    }

    @Test(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
    func postgresUpgrades() async throws {
        try await PostgresTestServer.withDatabase { url in
            let script = try OlderPostgresSchema.script(before: PGMigrations.sessionClientAddress) + Self.oldRows(verified: "TRUE")
            try await PostgresTestServer.psql(url, script)
            let store = try PostgresAccountStore(url: url, poolSize: 1, readModel: 10)
            #expect(try await store.migrate() == PostgresAccountStore.schemaVersion)
            // The listener checks that every trigger is in place and fires always before it
            // trusts the model: it catches up only if the replaced one is.
            try await eventually("the listener caught up") { store.readModelCounts?.listenerCaughtUp == true }
            try await Self.checkUpgraded(store)
            await store.close()
        }
    }
}
