import AccountStore
import AccountStorePostgres
@testable import AccountStoreSQL
import AccountStoreSQLite
import Foundation
import TestSupport
import Testing

/// Every shape of the operators' account search (each plan with each combination of filters) is
/// planned by both databases as reads of the runs it means (one index run per combination of the
/// filters it leaves open, ``AdminUserSearch/arms(_:)``), on the index of its order and of the
/// account's disabled state, never as a scan of `users`; and nothing is sorted but what is bounded:
/// the runs' heads (newest first and a key range: each run's `LIMIT`) or a short window's entries
/// (fewer than ``AdminUserSearch/shortWindow``, counted first). What keeps a page as cheap at a
/// million accounts as at ten (`make bench` measures it).
@Suite struct AdminSearchPlanTests {
    /// The index family a plan's runs read.
    static func family(_ plan: AdminUserSearch.Plan) -> String {
        switch plan {
        case .newest, .shortWindow: "users_search_created_"
        case .keyRange(let key, _), .keyBudget(let key, _): "users_search_\(key.indexName)_"
        }
    }

    /// Whether a plan's runs are sorted: only a short window's (fewer entries than
    /// ``AdminUserSearch/shortWindow``, counted first); the others come in their index's order.
    static func sortsRuns(_ plan: AdminUserSearch.Plan) -> Bool {
        if case .shortWindow = plan { true } else { false }
    }

    /// How many of SQLite's sorts sort what an index search of `users` gives (a sort's nearest
    /// sibling above it is the search); the others sort the runs' `LIMIT`ed heads as they merge.
    static func sortsOfRuns(_ plan: String) -> Int {
        let lines = plan.split(separator: "\n").map(String.init)
        let depth = { (line: String) in line.prefix { !$0.isLetter }.count }
        return lines.indices.filter { index in
            guard lines[index].contains("TEMP B-TREE") else { return false }
            let sibling = lines[..<index].last { depth($0) <= depth(lines[index]) }
            return sibling.map { depth($0) == depth(lines[index]) && $0.contains("SEARCH users") } ?? false
        }.count
    }


    /// Runs every statement in one `sqlite3`, each plan followed by a line `----`.
    static func sqlitePlans(_ path: String, _ statements: [String]) async throws -> [String] {
        let script = statements.map { "EXPLAIN QUERY PLAN \($0);\nSELECT '----';\n" }.joined()
        let file = path + ".plans.sql"
        try script.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await Program.run("sh", ["-c", "sqlite3 \"$0\" < \"$1\"", path, file])
        try #require(result.status.code == 0, "sqlite3: \(result.stderr)")
        let plans = result.stdout.components(separatedBy: "----\n").dropLast()
        try #require(plans.count == statements.count, "\(result.stdout)")
        return Array(plans)
    }

    @Test func sqlitePlansEveryShapeOnItsRuns() async throws {
        try await TemporaryDatabase.with { path in
            let store = try SQLiteAccountStore(path: path)
            try await store.migrate()
            await store.close()
            let shapes = AdminUserSearch.Shape.allCases
            let plans = try await Self.sqlitePlans(path, shapes.map(AdminUserSearch.text))
            for (shape, plan) in zip(shapes, plans) {
                let arms = AdminUserSearch.arms(shape.filters)
                let onUsers = plan.split(separator: "\n").filter { $0.contains(" users") }
                #expect(onUsers.count == arms.count, "\(shape): one search of users per run: \(plan)")
                #expect(!plan.contains("SCAN users"), "\(shape) scans users: \(plan)")
                for line in onUsers {
                    #expect(line.contains("SEARCH users USING ") && line.contains("INDEX \(Self.family(shape.plan))"), "\(shape): \(plan)")
                    // Every flag the run fixes is a leading column of the index it searches.
                    #expect(line.contains("(email_verified=? AND totp_enabled=?"), "\(shape): \(line)")
                }
                #expect(onUsers.filter { $0.contains("_disabled ") }.count == arms.filter(\.disabled).count, "\(shape): \(plan)")
                #expect(Self.sortsOfRuns(plan) == (Self.sortsRuns(shape.plan) ? arms.count : 0), "\(shape): \(plan)")
                // The last login of each row on the page: one entry of the sessions' index, never
                // every session of the account (the shapes that read it; the others' rows come by id).
                if AdminUserSearch.text(shape).contains(AdminUserSearch.lastLogin) {
                    #expect(plan.contains("SEARCH s USING COVERING INDEX sessions_user_created (user_id=?)"), "\(shape): \(plan)")
                }
                if case .keyBudget = shape.plan {
                    #expect(onUsers.allSatisfy { $0.contains("COVERING INDEX") }, "\(shape) reads the table for its budget: \(plan)")
                }
                if case .shortWindow = shape.plan {
                    #expect(onUsers.allSatisfy { $0.contains("COVERING INDEX") && $0.contains("created_at>? AND created_at<?") }, "\(shape): \(plan)")
                }
            }
            // The rows a page shows, by id, with their last login: one entry of the sessions' index each.
            for plan in try await Self.sqlitePlans(path, [AdminUserSearch.byID.text, AdminUserSearch.rowsByID.text]) {
                #expect(plan.contains("SEARCH s USING COVERING INDEX sessions_user_created (user_id=?)"), "\(plan)")
            }
            // The window's count reads the time runs alone.
            let counts = AdminUserSearch.Filters.allCases
            for (filters, plan) in zip(counts, try await Self.sqlitePlans(path, counts.map(AdminUserSearch.windowCountText))) {
                let onUsers = plan.split(separator: "\n").filter { $0.contains(" users") }
                #expect(onUsers.count == AdminUserSearch.arms(filters).count && onUsers.allSatisfy {
                    $0.contains("USING COVERING INDEX users_search_created_") && $0.contains("created_at>? AND created_at<?")
                }, "\(filters): \(plan)")
            }
        }
    }

    @Test(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
    func postgresPlansEveryShapeOnItsRuns() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try PostgresAccountStore(url: url, poolSize: 1)
            try await store.migrate()
            await store.close()
            // Enough accounts in every state for the planner's statistics to mean something.
            try await PostgresTestServer.psql(url, """
                INSERT INTO users (id, username, username_key, email, email_key, password_hash, mbti, email_verified, created_at, updated_at,
                    username_skeleton, username_display_skeleton, totp_enabled, recovery_codes_left, disabled_at)
                SELECT 'u' || n, 'user' || n, 'user' || n, 'user' || n || '@x.test', 'user' || n || '@x.test', 'h', 'INTJ', n % 10 <> 0,
                    1700000000000 + n * 1000, 0, 'user' || n, 'user' || n, n % 50 = 0, 0, CASE WHEN n % 100 = 0 THEN 1 ELSE NULL END
                FROM generate_series(1, 20000) AS n;
                ANALYZE users;
                """)
            var script = "SET enable_seqscan = off;\n"
            let shapes = AdminUserSearch.Shape.allCases
            for (number, shape) in shapes.enumerated() {
                // Prepared as the store prepares it, and planned for typical values. With sequential
                // scans priced out, a plan without a usable index still shows one: that is the failure.
                var query = AdminUserQuery(verified: shape.filters.verified, mfa: shape.filters.mfa, disabled: shape.filters.disabled)
                var after: AdminSearchPosition?
                switch shape.plan {
                case .newest: break
                case .keyRange(let key, let cursor), .shortWindow(let key, let cursor), .keyBudget(let key, let cursor):
                    query.prefix = key == .nickname ? .nicknameKey("user1") : .emailKey("user1")
                    if cursor { after = key == .nickname ? .nicknameKey("user15") : .emailKey("user15") }
                }
                if case .shortWindow = shape.plan { query.createdBefore = Date(timeIntervalSince1970: 1_700_000_600) }
                query.createdAfter = Date(timeIntervalSince1970: 1_700_000_000)
                let values = AdminUserSearch.parameters(query, shape, after: after, limit: 51).map(Self.literal).joined(separator: ", ")
                script += "PREPARE s\(number) AS \(Self.numbered(AdminUserSearch.text(shape)));\nEXPLAIN EXECUTE s\(number)(\(values));\nSELECT '----';\n"
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("plans-\(UUID().uuidString).sql").path
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let result = try await Program.run("psql", ["-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", url, "-f", file])
            try #require(result.status.code == 0, "psql: \(result.stderr)")
            let plans = result.stdout.components(separatedBy: "----\n").dropLast()
            try #require(plans.count == shapes.count, "\(result.stdout)")
            for (shape, plan) in zip(shapes, plans) {
                let arms = AdminUserSearch.arms(shape.filters)
                #expect(!plan.contains("Seq Scan on users"), "\(shape) scans users: \(plan)")
                let lines = plan.split(separator: "\n").map(String.init)
                let runs = lines.filter { $0.contains(" on users ") }
                #expect(runs.count == arms.count, "\(shape): one index run per combination: \(plan)")
                // PostgreSQL prices each run by its own statistics: a run holding most accounts may
                // be read on the key's unique index (its filters pass nearly every entry), a run of
                // a few by a bitmap and a sort of those few. Every run reads an index of its range.
                let keyIndexes = ["users_username_key_key", "users_email_key_key"]
                for (index, run) in lines.enumerated() where run.contains(" on users ") {
                    let read = run.contains("Bitmap Heap Scan") ? lines[index...].first { $0.contains("Bitmap Index Scan on ") } ?? run : run
                    #expect(read.contains(" users_search_") || keyIndexes.contains { read.contains(" \($0) ") }, "\(shape): \(run) in \(plan)")
                }
                switch shape.plan {
                case .newest, .keyRange:
                    // The runs' heads are merged (Merge Append) or sorted at most once, as LIMITed rows.
                    #expect(runs.allSatisfy { $0.contains("Index Scan") }, "\(shape) reads a run other than in order: \(plan)")
                    #expect(runs.allSatisfy { run in run.contains(" using \(Self.family(shape.plan))") || keyIndexes.contains { run.contains(" \($0) ") } },
                            "\(shape): \(plan)")
                    let sorts = lines.filter { $0.contains("->  Sort ") || $0.hasPrefix("Sort ") }.count
                    #expect(sorts <= 1, "\(shape) sorts more than the runs' heads: \(plan)")
                case .keyBudget, .shortWindow: break
                }
                // The last login of each row: the newest entry of the sessions' index for the account.
                if AdminUserSearch.text(shape).contains(AdminUserSearch.lastLogin) {
                    #expect(plan.contains("sessions_user_created on sessions s"), "\(shape): \(plan)")
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
