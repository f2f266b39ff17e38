import Foundation
import AccountStore
import AccountStoreSQL

extension Connection {
    /// Applies every step of ``Migrations`` not applied yet, up to version `latest` (all of them
    /// unless a test makes a database of before), each in its own transaction, and returns the
    /// version in force.
    ///
    /// The version is read again inside each write transaction, so two processes migrating the
    /// same file at once apply each step once.
    func migrate(upTo latest: Int = Migrations.steps.count) throws -> Int {
        try executeScript("""
            CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)
            """)
        while true {
            let version = try transaction(.immediate) { _ in
                let current = try appliedVersion()
                guard current < latest else { return current }
                try executeScript(Migrations.steps[current])
                try execute(Self.recordVersion, [.int(current + 1), .text(Date().ISO8601Format())])
                return current + 1
            }
            if version > latest {
                throw StoreError.failure(
                    reason: "database schema version \(version) is newer than this build knows (\(latest))")
            }
            if version == latest { return version }
        }
    }

    private func appliedVersion() throws -> Int {
        try rows(Self.currentVersion, []) { $0.int(0) }.first ?? 0
    }

    private static let currentVersion = SQLStatement("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
    private static let recordVersion = SQLStatement("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)")
}
