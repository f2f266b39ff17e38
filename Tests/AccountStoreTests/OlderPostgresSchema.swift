import Testing
@testable import AccountStorePostgres

/// What a PostgreSQL database looks like after the first steps of its migrations, as a server of
/// that time left it (the steps' tables and their `schema_migrations` rows): the start of every
/// upgrade test's `psql` script, to which the test adds the rows of that time.
enum OlderPostgresSchema {
    /// The script of the first `count` migration steps.
    static func script(steps count: Int) -> String {
        var script = "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL);\n"
        for (index, step) in PGMigrations.steps.prefix(count).enumerated() {
            script += step + "\nINSERT INTO schema_migrations VALUES (\(index + 1), 0);\n"
        }
        return script
    }

    /// The script of every step before `step` (one of `PGMigrations`' steps).
    static func script(before step: String) throws -> String {
        script(steps: try #require(PGMigrations.steps.firstIndex(of: step)))
    }
}
