import Foundation
import AccountStore
import AccountStoreSQL

extension PGConnection {
    /// Any 64-bit number the servers of one database agree on; this one spells "acctmigr".
    private static let migrationLockKey: Int64 = 0x6163_6374_6d69_6772

    /// Applies every step of ``PGMigrations`` not applied yet, in one transaction, and returns the
    /// version in force.
    ///
    /// The transaction first takes an advisory lock, so servers starting at once apply each step
    /// once: the second waits, then finds nothing left to do. PostgreSQL's DDL is transactional, so
    /// a failed step leaves no half-made schema behind.
    func migrate() throws -> Int {
        let latest = PGMigrations.steps.count
        return try transaction(.write) { _ in
            try execute(Self.takeMigrationLock, [.integer(Self.migrationLockKey)])
            try executeScript("""
                CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)
                """)
            let current = try rows(Self.currentVersion, []) { $0.int(0) }.first ?? 0
            if current > latest {
                throw StoreError.failure(
                    reason: "database schema version \(current) is newer than this build knows (\(latest))")
            }
            for version in current..<latest {
                try executeScript(PGMigrations.steps[version])
                try execute(Self.recordVersion, [.int(version + 1), .date(Date())])
            }
            return latest
        }
    }

    private static let takeMigrationLock = SQLStatement("SELECT pg_advisory_xact_lock(?)")
    private static let currentVersion = SQLStatement("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
    private static let recordVersion = SQLStatement("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)")
}
