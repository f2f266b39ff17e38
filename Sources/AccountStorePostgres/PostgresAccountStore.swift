import AccountStore
import AccountStoreCache
import AccountStoreSQL
import Foundation
import Workers

/// The ``AccountStore`` on a PostgreSQL database, for several servers sharing one database.
///
/// A pool of connections, each owned by a thread of its own; callers suspend while a thread does
/// the work, never blocking the task pool. Reads run in `REPEATABLE READ READ ONLY` transactions
/// (one snapshot, writes refused); writes in `READ COMMITTED`, where every contended operation is
/// one conditional statement, so two servers racing on a row get exactly one winner. A write that
/// fails with a serialization failure or deadlock (SQLSTATE 40001, 40P01) is run again, up to five
/// times in all, which is why bodies must have no effects outside their transaction.
///
/// A lost connection makes calls throw `StoreError.unavailable`; the next call on that connection
/// reconnects, so service resumes by itself when the database is back.
///
/// ```swift
/// let store = try PostgresAccountStore(url: "postgres://account@db.internal:5432/account")
/// try await store.migrate()
/// let count = try await store.read { try $0.userCount() }
/// ```
public final class PostgresAccountStore: AccountStore {
    private let pool: WorkerPool<PGConnection>
    /// Told after each committed write that queued mail.
    private let mailQueued = MailQueuedHook()
    /// Where the database is, for a change feed's listening connection.
    private let url: String

    /// The schema version this build migrates to.
    public static var schemaVersion: Int { PGMigrations.steps.count }

    /// Connects `poolSize` connections (at least one) to the database at `url`.
    ///
    /// Does not migrate; call ``migrate()``. `url` is a libpq URI or key=value string; unless it
    /// says otherwise, connecting gives up after 2 seconds (`connect_timeout`).
    ///
    /// - Throws: `StoreError.unavailable` if the database cannot be reached; the reason names the
    ///   host and port, never the password.
    public init(url: String, poolSize: Int = 4) throws {
        let connections = try (0..<max(1, poolSize)).map { _ in try PGConnection(url: url) }
        pool = .store(name: "postgres", connections: connections)
        self.url = url
    }

    deinit {
        pool.stop()
    }

    /// Runs `body` in a `REPEATABLE READ READ ONLY` transaction; writes in it fail.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await onConnection { connection in try connection.transaction(.read) { try body($0) } }
    }

    /// The session with its account in one statement and one round trip (no `BEGIN`/`COMMIT`).
    public func sessionWithUser(id: UUID) async throws -> SessionWithUser? {
        try await onConnection { connection in try connection.singleStatement { try $0.sessionWithUser(id: id) } }
    }

    /// A feed that keeps the cache `model` belongs to fresh against every other writer of the
    /// database, through a listening connection of its own (``PostgresChangeFeed``), answering as
    /// `freshness` says; `sessionIdle` (judged by `now`) is the sessions' idle lifetime, against
    /// which a held session's last use is checked.
    public func changeFeed(
        reportingTo model: SessionReadModel, freshness: PostgresChangeFeed.Freshness = .exact, sessionIdle: TimeInterval? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> PostgresChangeFeed {
        PostgresChangeFeed(url: url, model: model, freshness: freshness, sessionIdle: sessionIdle, now: now)
    }

    /// Runs `body` in a `READ COMMITTED` transaction; rolls back and rethrows if it throws, and
    /// runs it again after a serialization failure or deadlock.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        let (result, queuedMail) = try await onConnection { connection in
            try connection.transaction(.write) { tx in (try body(tx), tx.queuedMail) }
        }
        mailQueued.committed(queued: queuedMail)
        return result
    }

    public func whenMailQueued(_ hook: @escaping @Sendable () -> Void) { mailQueued.set(hook) }

    /// Runs `SELECT 1`, reconnecting first if the connection was lost.
    public func ping() async throws {
        try await onConnection { connection in try connection.retryingOnceIfDisconnected { try connection.ping() } }
    }

    /// Applies pending migrations under an advisory lock; returns the schema version in force.
    @discardableResult
    public func migrate() async throws -> Int {
        try await migrate(steps: PGMigrations.steps)
    }

    /// Applies `steps` as the schema's versions (tests add steps of a later build this way).
    func migrate(steps: [String]) async throws -> Int {
        try await onConnection { connection in try connection.migrate(steps: steps) }
    }

    /// Rows in every table of the connection's current schema (`public` unless `search_path`
    /// says otherwise), by table name, `schema_version` included.
    public func rowCounts() async throws -> [String: Int] {
        try await onConnection { connection in
            try connection.transaction(.read) { _ in
                try connection.rowCounts(tablesListedBy: """
                    SELECT table_name FROM information_schema.tables
                    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
                    """)
            }
        }
    }

    /// Fails queued work, lets running work finish, and closes every connection.
    public func close() async {
        await pool.stopAndWait()
    }

    /// Runs `work` on a pool thread's connection.
    private func onConnection<T: Sendable>(_ work: @escaping @Sendable (PGConnection) throws -> T) async throws -> T {
        try await pool.run { connection in
            // A connection lost during an earlier job comes back before the next, so service resumes by itself.
            try connection.reconnectIfNeeded()
            return try work(connection)
        }
    }
}
