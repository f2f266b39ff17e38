import AccountStore
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
public final class PostgresAccountStore: InlineReadableStore {
    /// When the read model may answer a lookup.
    public enum Freshness: String, Sendable, CaseIterable {
        /// After a round trip through the notification channel that began after the lookup: every
        /// change committed before the lookup began has been applied (exact; batched, so one round
        /// trip serves every lookup waiting at once).
        case exact
        /// At once while the listener is caught up: another writer's commit is seen once its
        /// notification has been delivered (well under a millisecond on one machine, but after
        /// the commit returned to its client).
        case notified
    }

    private let pool: WorkerPool<PGConnection>
    /// Sessions with their accounts in memory, when kept (see ``sessionWithUser(id:)``).
    private let model: SessionReadModel?
    /// Told after each committed write that queued mail.
    private let mailQueued = MailQueuedHook()
    /// What keeps the model fresh against other writers, and says when it may be trusted.
    private let listener: PGChangeListener?
    private let freshness: Freshness
    /// How long a session lives unused, and the clock it is judged by: a held session that looks
    /// idle too long by its held last use is read again (see ``isUsable(_:)``).
    private let sessionIdle: TimeInterval?
    private let now: @Sendable () -> Date

    /// Connects `poolSize` connections (at least one) to the database at `url`.
    ///
    /// Does not migrate; call ``migrate()``. `url` is a libpq URI or key=value string; unless it
    /// says otherwise, connecting gives up after 2 seconds (`connect_timeout`).
    ///
    /// - Throws: `StoreError.unavailable` if the database cannot be reached; the reason names the
    ///   host and port, never the password.
    /// The schema version this build migrates to.
    public static var schemaVersion: Int { PGMigrations.steps.count }

    ///
    /// With `readModel` above 0 it keeps up to that many sessions with their accounts in memory (a
    /// ``SessionReadModel``), trusted only while a listening connection of its own is caught up
    /// with the database's change notifications, and answering as `freshness` says (see
    /// ``sessionWithUser(id:)``).
    ///
    /// A session's last use moves forward with each refresh without a notification (so refreshes
    /// need not queue behind PostgreSQL's notification lock; only a refresh from a new client
    /// address announces one, so the held address stays exact), so a held one may be older than the
    /// database's. That only ever makes a session look less live; with `sessionIdle` (the idle
    /// lifetime, judged by `now`) a held session that would look idle-expired is read again
    /// instead of answered. Without it, held sessions are answered as held.
    public init(
        url: String, poolSize: Int = 4, readModel: Int = 0, freshness: Freshness = .exact, sessionIdle: TimeInterval? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        let connections = try (0..<max(1, poolSize)).map { _ in try PGConnection(url: url) }
        pool = .store(name: "postgres", connections: connections)
        let model = readModel > 0 ? SessionReadModel(capacity: readModel) : nil
        self.model = model
        self.freshness = freshness
        self.sessionIdle = sessionIdle
        self.now = now
        listener = model.map { PGChangeListener(url: url, model: $0) }
    }

    deinit {
        listener?.stop()
        pool.stop()
    }

    /// Runs `body` in a `REPEATABLE READ READ ONLY` transaction; writes in it fail.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await onConnection { connection in try connection.transaction(.read) { try body($0) } }
    }

    /// The session with its account: from the read model when it holds them and the change
    /// listener is caught up (`.exact`: caught up with every commit before this call), else in one
    /// statement and one round trip (no `BEGIN`/`COMMIT`), and remembered when the listener was
    /// caught up when the lookup began.
    ///
    /// Exact for this server's writes (dropped before they run, as on SQLite). Another writer's
    /// commit is seen by the next lookup with `.exact`, and once its notification has been
    /// delivered with `.notified`; while the listener is not caught up every lookup reads.
    public func sessionWithUser(id: UUID) async throws -> SessionWithUser? {
        guard let model, let listener, await isFresh(listener) else {
            _ = model?.bypass()
            return try await readSessionWithUser(id)
        }
        let ticket: SessionReadModel.Ticket
        switch model.find(id, usable: isUsable) {
        case .hit(let found): return found
        case .miss(let missed): ticket = missed
        }
        let found = try await readSessionWithUser(id)
        model.remember(found, ticket)
        return found
    }

    /// Whether a held session may be answered: not when its held last use makes it look idle
    /// for its whole idle lifetime, less a few seconds for the caller's clock read apart from this one.
    private func isUsable(_ found: SessionWithUser) -> Bool {
        guard let sessionIdle else { return true }
        return now().timeIntervalSince(found.session.lastUsedAt) < sessionIdle - 5
    }

    /// Whether the model may answer a lookup that begins now.
    private func isFresh(_ listener: PGChangeListener) async -> Bool {
        switch freshness {
        case .exact: await listener.catchUp()
        case .notified: listener.isCaughtUp
        }
    }

    private func readSessionWithUser(_ id: UUID) async throws -> SessionWithUser? {
        try await onConnection { connection in try connection.singleStatement { try $0.sessionWithUser(id: id) } }
    }

    /// Nothing is read on the calling thread: every connection belongs to a pool thread.
    public func readInline<T>(_ body: (any StoreTransaction) throws -> T) throws -> T? { nil }

    /// The session with its account when the read model holds them and may answer now (never
    /// with `.exact`, which waits for a round trip); `nil` (take the ordinary path) otherwise.
    public func sessionWithUserInline(id: UUID) throws -> SessionWithUser?? {
        guard freshness == .notified, let model, let listener, listener.isCaughtUp, let found = model.held(id, usable: isUsable) else { return nil }
        return .some(found)
    }

    public var readModelCounts: SessionReadModel.Counts? {
        guard let model, let listener else { return nil }
        var counts = model.counts
        counts.listenerCaughtUp = listener.isCaughtUp
        counts.listenerConnects = listener.connectCount
        return counts
    }

    /// Runs `body` in a `READ COMMITTED` transaction; rolls back and rethrows if it throws, and
    /// runs it again after a serialization failure or deadlock.
    ///
    /// With a read model, what each statement changes leaves the model before it runs, and the
    /// model takes nothing new until the transaction has ended (``ReadModelTransaction``).
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        let scope = model?.beginWrite()
        defer { if let scope { model?.endWrite(scope) } }
        let (result, queuedMail) = try await onConnection { connection in
            try connection.transaction(.write) { tx in
                (try body(scope.map { ReadModelTransaction(tx, scope: $0) as any StoreTransaction } ?? tx), tx.queuedMail)
            }
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
        listener?.stop()
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
