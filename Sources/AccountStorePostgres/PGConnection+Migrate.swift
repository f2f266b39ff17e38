import Foundation
import AccountStore
import AccountStoreSQL

extension PGConnection {
    /// Any 64-bit number the servers of one database agree on; this one spells "acctmigr".
    private static let migrationLockKey: Int64 = 0x6163_6374_6d69_6772

    /// Applies every one of `steps` (``PGMigrations/steps`` unless a test adds its own) not
    /// applied yet, in one transaction, and returns the version in force.
    ///
    /// The transaction first takes an advisory lock, so servers starting at once apply each step
    /// once: the second waits, then finds nothing left to do. PostgreSQL's DDL is transactional, so
    /// a failed step leaves no half-made schema behind. A database made by a build from before the
    /// baseline, or at a version newer than `steps`, is refused (``SchemaVersions``).
    func migrate(steps: [String] = PGMigrations.steps) throws -> Int {
        try transaction(.write) { _ in
            try execute(Self.takeMigrationLock, [.integer(Self.migrationLockKey)])
            let current = try SchemaVersions.current(on: self, latest: steps.count, preBaselineTable: Self.preBaselineTable)
            for version in current..<steps.count {
                try executeScript(steps[version])
                try SchemaVersions.record(version + 1, at: Date(), on: self)
            }
            return steps.count
        }
    }

    private static let takeMigrationLock = SQLStatement("SELECT pg_advisory_xact_lock(?)")
    private static let preBaselineTable = """
        SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_name = 'schema_migrations'
        """
}
