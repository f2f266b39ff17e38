import AccountAPI
import AccountStore
import Foundation
import TestSupport
import Testing
import UnicodeSecurity
@testable import AccountStorePostgres
@testable import AccountStoreSQLite

/// A database written by the code before nickname skeletons (schema version 3), migrated: its
/// accounts wait with no skeleton and their old email keys until the key backfill fills them.
enum LegacyAccounts {
    /// The schema version before skeletons.
    static let version = 3

    static let rows: [(id: UUID, name: String, email: String, verified: Bool, seconds: Int)] = [
        (UUID(), "Mina", "mina@example.com", true, 0),
        (UUID(), "rnina", "rnina@example.com", false, 10),      // looks like "mina"
        (UUID(), "Sam", "\u{017F}am@example.com", false, 20),   // long s
        (UUID(), "Joon", "joon@example.com", true, 30),
        (UUID(), "Wide", "ｊoon@example.com", true, 40),         // full-width j: Joon's address
    ]

    /// The INSERTs the old code made: email keys only lower-cased, no skeleton column.
    static func inserts(true yes: String, false no: String) -> String {
        rows.map { row in
            let created = Int64(Fixture.time(row.seconds).timeIntervalSince1970 * 1000)
            return """
                INSERT INTO users (id, username, username_key, email, email_key, password_hash, mbti, email_verified, created_at, updated_at)
                VALUES ('\(row.id.uuidString.lowercased())', '\(row.name)', '\(row.name.lowercased())', '\(row.email)',
                    '\(row.email.lowercased())', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', 'INTJ', \(row.verified ? yes : no),
                    \(created), \(created));
                """
        }.joined(separator: "\n")
    }

    /// Migrates `store` and checks what it holds before and after the backfill.
    static func check(_ store: any AccountStore, schemaVersion: Int) async throws {
        #expect(try await store.migrate() == schemaVersion)
        let waiting = try await store.read { try $0.usersWithoutSkeleton(limit: 100) }
        #expect(Set(waiting.map(\.id)) == Set(rows.map(\.id)))
        #expect(try await store.read { try $0.user(emailKey: "\u{017F}am@example.com")?.id } == rows[2].id)

        let checker = try SpoofChecker()
        let outcome = try await UserKeyBackfill(
            skeletons: StoreConformance.skeletons(checker), emailKey: { EmailRule.key($0) }
        ).run(on: store)
        #expect(outcome.filled == rows.count)
        #expect(Set(outcome.displaced.map { "\($0.userID) \($0.field) \($0.keptBy)" }) == [
            "\(rows[1].id) username \(rows[0].id)", "\(rows[4].id) email \(rows[3].id)",
        ])
        let (mina, sam, joon) = try await store.read { tx in
            (try tx.user(usernameSkeleton: try checker.skeleton("mina"), kind: .folded), try tx.user(emailKey: "sam@example.com"),
             try tx.user(emailKey: "joon@example.com"))
        }
        #expect(mina?.id == rows[0].id)
        #expect(sam?.id == rows[2].id && sam?.email == "\u{017F}am@example.com")
        #expect(joon?.id == rows[3].id)
        #expect(try await store.read { try $0.usersWithoutSkeleton(limit: 100) }.isEmpty)
    }
}

@Suite struct SQLiteSkeletonMigrationTests {
    @Test func accounts_of_version_3_get_skeletons_and_new_email_keys() async throws {
        try await TemporaryDatabase.with { path in
            do {
                let old = try Connection(path: path, role: .writer)
                try old.executeScript("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
                for (index, step) in Migrations.steps.prefix(LegacyAccounts.version).enumerated() {
                    try old.executeScript(step)
                    try old.executeScript("INSERT INTO schema_migrations VALUES (\(index + 1), '2025-01-01T00:00:00Z')")
                }
                try old.executeScript(LegacyAccounts.inserts(true: "1", false: "0"))
            }
            let store = try SQLiteAccountStore(path: path)
            try await LegacyAccounts.check(store, schemaVersion: SQLiteAccountStore.schemaVersion)
            await store.close()
        }
    }
}

@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct PostgresSkeletonMigrationTests {
    @Test func accounts_of_version_3_get_skeletons_and_new_email_keys() async throws {
        try await PostgresTestServer.withDatabase { url in
            let script = OlderPostgresSchema.script(steps: LegacyAccounts.version)
            try await PostgresTestServer.psql(url, script + LegacyAccounts.inserts(true: "TRUE", false: "FALSE"))
            let store = try PostgresAccountStore(url: url, poolSize: 2)
            try await LegacyAccounts.check(store, schemaVersion: PostgresAccountStore.schemaVersion)
            await store.close()
        }
    }
}
