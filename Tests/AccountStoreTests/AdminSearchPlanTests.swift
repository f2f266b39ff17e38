import AccountStore
import AccountStorePostgres
import AccountStoreSQL
import AccountStoreSQLite
import Foundation
import TestSupport
import Testing

/// Every shape of the operators' account search (each combination of filters it offers) is
/// planned on an index by both databases, never as a scan of the `users` table: what keeps a page
/// as cheap at a million accounts as at ten (`make bench` measures it). Without a nickname or
/// address prefix the order itself comes from the index (no sort step either).
@Suite struct AdminSearchPlanTests {
    /// The indexes a search may walk: the search's own and the unique keys' (SQLite names those
    /// `sqlite_autoindex_users_N`; PostgreSQL by their constraints).
    static let searchIndexes = ["users_created", "users_verified_created", "users_mfa_created", "users_disabled_created"]

    @Test func sqlitePlansEveryShapeOnAnIndex() async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path)
            try await store.migrate()
            await store.close()
            for shape in AdminUserSearch.Shape.allCases {
                let result = try await Program.run("sqlite3", [path, "EXPLAIN QUERY PLAN " + AdminUserSearch.text(shape)])
                try #require(result.status.code == 0, "sqlite3: \(result.stderr)")
                let plan = result.stdout
                let onUsers = plan.split(separator: "\n").filter { $0.contains(" users") && !$0.contains(" s USING") }
                #expect(onUsers.count == 1, "\(shape): \(plan)")
                for line in onUsers {
                    let index = ["USING INDEX ", "USING COVERING INDEX "].lazy.compactMap { line.range(of: $0) }.first
                        .map { String(line[$0.upperBound...].prefix { $0 != " " }) }
                    if shape.searchesKeyRange {
                        // SQLite names the unique keys' indexes `sqlite_autoindex_users_<n>`.
                        #expect(index?.hasPrefix("sqlite_autoindex_users_") == true, "\(shape) does not search the key: \(plan)")
                    } else {
                        #expect(index.map(Self.searchIndexes.contains) == true, "\(shape) scans users without a search index: \(plan)")
                        #expect(!plan.contains("TEMP B-TREE"), "\(shape) sorts instead of walking the index in order: \(plan)")
                    }
                }
                let alone = !shape.verified && !shape.mfa
                if shape.prefix == .absent && alone && shape.disabled == true {
                    #expect(plan.contains("users_disabled_created"), "\(shape): \(plan)")
                }
                if shape == .init(prefix: .absent, verified: true, mfa: false, disabled: nil) {
                    #expect(plan.contains("users_verified_created"), "\(plan)")
                }
                if shape == .init(prefix: .absent, verified: false, mfa: true, disabled: nil) {
                    #expect(plan.contains("users_mfa_created"), "\(plan)")
                }
            }
            // The count that chooses between a prefix's two ways reads the key's index alone.
            for statement in ["username_key", "email_key"] {
                let count = "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM (SELECT 1 FROM users WHERE \(statement) >= ? AND \(statement) < ? LIMIT 5000)"
                let plan = try await Program.run("sqlite3", [path, count]).stdout
                #expect(plan.contains("USING COVERING INDEX sqlite_autoindex_users_"), "\(plan)")
            }
        }
    }

    @Test(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
    func postgresPlansEveryShapeOnAnIndex() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try PostgresAccountStore(url: url, poolSize: 1)
            try await store.migrate()
            await store.close()
            // Enough accounts for the planner's statistics to mean something.
            try await PostgresTestServer.psql(url, """
                INSERT INTO users (id, username, username_key, email, email_key, password_hash, mbti, email_verified, created_at, updated_at,
                    totp_enabled, recovery_codes_left, disabled_at)
                SELECT 'u' || n, 'user' || n, 'user' || n, 'user' || n || '@x.test', 'user' || n || '@x.test', 'h', 'INTJ', n % 10 <> 0,
                    1700000000000 + n * 1000, 0, n % 50 = 0, 0, CASE WHEN n % 100 = 0 THEN 1 ELSE NULL END
                FROM generate_series(1, 20000) AS n;
                ANALYZE users;
                """)
            for shape in AdminUserSearch.Shape.allCases {
                // Prepared as the store prepares it, and planned for typical values. With sequential
                // scans priced out, a plan without a usable index still shows one: that is the failure.
                var query = AdminUserQuery()
                switch shape.prefix {
                case .absent: break
                case .nickname: query.prefix = .nicknameKey("user1234")
                case .commonNickname: query.prefix = .nicknameKey("user1")
                case .email: query.prefix = .emailKey("user1234@")
                case .commonEmail: query.prefix = .emailKey("user1")
                }
                if shape.verified { query.verified = true }
                if shape.mfa { query.mfa = false }
                query.disabled = shape.disabled
                query.createdAfter = Date(timeIntervalSince1970: 1_700_000_000)
                let values = AdminUserSearch.parameters(query, shape, after: nil, limit: 51).map(Self.literal).joined(separator: ", ")
                let script = "SET enable_seqscan = off; PREPARE search AS \(Self.numbered(AdminUserSearch.text(shape))); "
                    + "EXPLAIN EXECUTE search(\(values));"
                let result = try await Program.run("psql", ["-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", script])
                try #require(result.status.code == 0, "psql: \(result.stderr)")
                let plan = result.stdout
                #expect(!plan.contains("Seq Scan on users"), "\(shape) scans users: \(plan)")
                let keys = ["users_username_key_key", "users_email_key_key"]
                #expect((Self.searchIndexes + keys).contains { plan.contains(" \($0)") }, "\(shape): \(plan)")
                if shape.searchesKeyRange {
                    #expect(keys.contains { plan.contains(" \($0)") }, "\(shape) does not search the key: \(plan)")
                }
            }
        }
    }

    /// `?` placeholders as PostgreSQL's `$1`, `$2`, … (the statements hold no `?` elsewhere).
    static func numbered(_ text: String) -> String {
        var number = 0
        return text.reduce(into: "") { result, character in
            guard character == "?" else { return result.append(character) }
            number += 1
            result += "$\(number)"
        }
    }

    static func literal(_ value: SQLValue) -> String {
        switch value {
        case .integer(let number): String(number)
        case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .bool(let flag): flag ? "TRUE" : "FALSE"
        case .null: "NULL"
        case .blob: "NULL"
        }
    }
}
