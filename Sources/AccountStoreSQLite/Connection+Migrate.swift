import Foundation
import AccountStore
import AccountStoreSQL

extension Connection {
    /// Applies every one of `steps` (``Migrations/steps`` unless a test adds its own) not applied
    /// yet, each in its own transaction, and returns the version in force.
    ///
    /// The version is read again inside each write transaction, so two processes migrating the
    /// same file at once apply each step once. A database made by a build from before the baseline,
    /// or at a version newer than `steps`, is refused (``SchemaVersions``).
    func migrate(steps: [String] = Migrations.steps) throws -> Int {
        while true {
            let version = try transaction(.immediate) { _ in
                let current = try SchemaVersions.current(on: self, latest: steps.count, preBaselineTable: Self.preBaselineTable)
                guard current < steps.count else { return current }
                try executeScript(steps[current])
                try SchemaVersions.record(current + 1, at: Date(), on: self)
                return current + 1
            }
            if version == steps.count { return version }
        }
    }

    private static let preBaselineTable = "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
}
