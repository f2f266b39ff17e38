import AccountStore
import Foundation

/// The record of the schema versions applied to a database, one row each in `schema_version`,
/// read and written the same way by every backend's migration runner inside its migrating
/// transaction.
///
/// Builds from before ``SchemaBaseline`` kept their own numbering in `schema_migrations`; their
/// steps are not this build's, so a database that has that table is refused, never taken for
/// version 1.
public enum SchemaVersions {
    /// Creates the record on a new database.
    public static let createTable = "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)"

    /// The version in force on `connection` (0 for a new database), checked against the `latest`
    /// this build knows.
    ///
    /// - Parameter preBaselineTable: a catalog query that returns a row when the database has a
    ///   `schema_migrations` table.
    /// - Throws: `.failure` for a database made by a build from before the baseline, or one at a
    ///   version newer than `latest`.
    public static func current(on connection: any SQLConnection, latest: Int, preBaselineTable: String) throws -> Int {
        if try !connection.rowsOnce(preBaselineTable, { _ in true }).isEmpty {
            let old = try connection.rowsOnce("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") { $0.int(0) }.first ?? 0
            throw StoreError.failure(reason: """
                the database was made by a build from before schema version 1 (its schema_migrations table records \
                version \(old)); this build cannot upgrade it: start from a new database
                """)
        }
        try connection.queryOnce(createTable) { _ in }
        let current = try connection.rows(currentVersion, []) { $0.int(0) }.first ?? 0
        if current > latest {
            throw StoreError.failure(reason: "database schema version \(current) is newer than this build knows (\(latest))")
        }
        return current
    }

    /// Records that `version` was applied at `date`.
    public static func record(_ version: Int, at date: Date, on connection: any SQLConnection) throws {
        try connection.execute(recordVersion, [.int(version), .date(date)])
    }

    private static let currentVersion = SQLStatement("SELECT COALESCE(MAX(version), 0) FROM schema_version")
    private static let recordVersion = SQLStatement("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)")
}
