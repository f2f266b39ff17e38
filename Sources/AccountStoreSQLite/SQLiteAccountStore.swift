import AccountStore
import AccountStoreSQL
import Foundation
import Synchronization
import Workers

/// The ``AccountStore`` on one SQLite file: one writer thread, a few reader threads, WAL mode.
///
/// Writes are serialized on the writer's connection (`BEGIN IMMEDIATE` … `COMMIT`), so they never
/// fight over the lock; reads run in a deferred transaction on a reader connection and see one
/// snapshot. Callers suspend while a store thread does the work, never blocking the task pool.
/// A few more read connections serve ``readInline(_:)`` on the caller's own thread.
/// `synchronous=NORMAL`: a committed write survives a process crash; the last few may be lost on
/// power failure.
///
/// Times are stored as whole milliseconds since 1970: a `Date` comes back rounded to the
/// millisecond, and exactly equal when it was such a value to begin with.
///
/// ```swift
/// let store = try SQLiteAccountStore(path: "account.sqlite")
/// try await store.migrate()
/// let count = try await store.read { try $0.userCount() }
/// ```
public final class SQLiteAccountStore: InlineReadableStore {
    /// The schema version this build migrates to.
    public static var schemaVersion: Int { Migrations.steps.count }

    /// A database file that group or others could read or write, made private at open.
    public struct LooseFile: Sendable, Equatable {
        public let path: String
        /// Its permission bits before (e.g. `0o644`).
        public let previousMode: UInt16

        public init(path: String, previousMode: UInt16) {
            self.path = path
            self.previousMode = previousMode
        }
    }

    /// The files this store found open to other users and made `0600` when it opened; the server
    /// warns about them.
    public let tightenedFiles: [LooseFile]

    private let writer: WorkerPool<Connection>
    private let gate: WriterGate
    private let readers: WorkerPool<Connection>
    private let inline: InlineReaders
    /// Sessions with their accounts in memory, when kept (see ``sessionWithUser(id:)``).
    private let model: SessionReadModel?
    /// Told after each committed write that queued mail.
    private let mailQueued = MailQueuedHook()
    private let path: String
    private let fileChecks = Atomic<Int>(0)

    /// Opens (creating if needed) the database at `path`, with `readers` read connections (at
    /// least one) on threads of their own, and up to `inlineReaders` more, opened when first needed,
    /// lent to callers' threads. Does not migrate; call ``migrate()``.
    ///
    /// With `readModel` above 0 it keeps up to that many sessions with their accounts in memory
    /// (a ``SessionReadModel``) for ``sessionWithUser(id:)``; its freshness check uses the inline
    /// read connections, so it needs `inlineReaders` of at least 1 to serve anything.
    ///
    /// The file and SQLite's files beside it are mode `0600` whatever the umask; existing ones open
    /// to other users are tightened (see ``tightenedFiles``).
    ///
    /// - Throws: `StoreError.unavailable` if the file cannot be opened, made private, or put in WAL mode.
    public init(path: String, readers: Int = 2, inlineReaders: Int = 4, readModel: Int = 0) throws {
        tightenedFiles = try DatabaseFiles.secure(path)
        self.path = path
        // The writer opens first: it creates the file and switches it to WAL for everyone.
        let writerConnection = try Connection(path: path, role: .writer)
        let readerConnections = try (0..<max(1, readers)).map { _ in try Connection(path: path, role: .reader) }
        writer = .store(name: "sqlite-writer", connections: [writerConnection])
        gate = WriterGate(writerConnection)
        self.readers = .store(name: "sqlite-reader", connections: readerConnections)
        inline = InlineReaders(path: path, limit: max(0, inlineReaders))
        model = readModel > 0 ? SessionReadModel(capacity: readModel) : nil
    }

    deinit {
        inline.close()
        readers.stop()
        writer.stop()
        gate.close()
    }

    /// Runs `body` in a deferred transaction on a reader connection; writes in it fail.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await readers.run { connection in try connection.transaction(.deferred) { try body($0) } }
    }

    /// Runs `body` in a deferred transaction on the calling thread if an inline read connection is
    /// free right now; `nil` if none is.
    public func readInline<T>(_ body: (any StoreTransaction) throws -> T) throws -> T? {
        try inline.read(body)
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction on the writer; rolls back and rethrows if it throws.
    ///
    /// With a read model, what each statement changes leaves the model before it runs, and the
    /// model takes nothing new until the transaction has ended (``ReadModelTransaction``).
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        let scope = model?.beginWrite()
        defer { if let scope { model?.endWrite(scope) } }
        let (result, queuedMail) = try await onWriter { connection in
            try connection.transaction(.immediate) { tx in
                (try body(scope.map { ReadModelTransaction(tx, scope: $0) as any StoreTransaction } ?? tx), tx.queuedMail)
            }
        }
        mailQueued.committed(queued: queuedMail)
        return result
    }

    public func whenMailQueued(_ hook: @escaping @Sendable () -> Void) { mailQueued.set(hook) }

    /// Runs `work` on the writer thread with the writer connection.
    private func onWriter<T: Sendable>(_ work: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await writer.run { [gate] _ in try gate.use(work) }
    }

    /// The session with its account: from the read model when it holds them and nothing but this
    /// store wrote the file since it was filled, else read (and remembered).
    public func sessionWithUser(id: UUID) async throws -> SessionWithUser? {
        guard let model else { return try await read { try $0.sessionWithUser(id: id) } }
        let ticket: SessionReadModel.Ticket
        switch (try? inline.lend { lookup(id, in: model, checkingWith: $0) }) ?? .miss(model.bypass()) {
        case .hit(let found): return found
        case .miss(let missed): ticket = missed
        }
        let found = try await read { try $0.sessionWithUser(id: id) }
        model.remember(found, ticket)
        return found
    }

    /// ``sessionWithUser(id:)`` on the calling thread, checking and reading on one lent connection;
    /// `nil` when none is free.
    public func sessionWithUserInline(id: UUID) throws -> SessionWithUser?? {
        guard let model else { return try inline.read { try $0.sessionWithUser(id: id) } }
        return try inline.lend { lent -> SessionWithUser? in
            let ticket: SessionReadModel.Ticket
            switch lookup(id, in: model, checkingWith: lent) {
            case .hit(let found): return found
            case .miss(let missed): ticket = missed
            }
            let found = try lent.connection.transaction(.deferred) { try $0.sessionWithUser(id: id) }
            model.remember(found, ticket)
            return found
        }
    }

    public var readModelCounts: SessionReadModel.Counts? { model?.counts }

    /// The model's answer, once nothing unknown can have changed the file since it was filled:
    /// `lent`'s `data_version` is as last confirmed (nobody committed since), or the writer's says
    /// whether anyone but the writer did (then the model is cleared first). A miss that did not
    /// ask the model when neither can be told now.
    ///
    /// The WAL-index header in shared memory spares the statement (and its file locks) while it
    /// reads as it did before the last confirmation: then nobody has committed since.
    private func lookup(_ id: UUID, in model: SessionReadModel, checkingWith lent: InlineReaders.Lent) -> SessionReadModel.Lookup {
        let header = lent.walIndex??.current()
        if let header, header == lent.confirmedHeader { return model.find(id) }
        // Read after `header`, so a confirmation below covers every commit before it.
        guard let seen = try? lent.connection.dataVersion() else { return .miss(model.bypass()) }
        if seen != lent.confirmedVersion {
            // Read after `seen`, so it covers every commit `seen` does.
            guard gate.foreignCommits(onChange: model.clear) != nil else { return .miss(model.bypass()) }
            lent.confirmedVersion = seen
        }
        lent.confirmedHeader = header
        fileChecks.add(1, ordering: .relaxed)
        // Mapped once the connection has read the file, so SQLite has made its `-shm` file.
        if lent.walIndex == nil { lent.walIndex = .some(WALIndexWatch(databasePath: path)) }
        return model.find(id)
    }

    /// How many read-model answers needed SQLite's own check (`PRAGMA data_version`) because the
    /// WAL-index header had changed (or could not be read) since the last one.
    public var readModelFileChecks: Int { fileChecks.load(ordering: .relaxed) }

    /// Runs `SELECT 1` on a reader connection.
    public func ping() async throws {
        try await readers.run { connection in try connection.ping() }
    }

    /// Applies pending migrations on the writer; returns the schema version in force.
    @discardableResult
    public func migrate() async throws -> Int {
        try await migrate(steps: Migrations.steps)
    }

    /// Applies `steps` as the schema's versions (tests add steps of a later build this way).
    func migrate(steps: [String]) async throws -> Int {
        try await onWriter { try $0.migrate(steps: steps) }
    }

    /// Rows in every table, by table name.
    public func rowCounts() async throws -> [String: Int] {
        try await readers.run { connection in
            try connection.transaction(.deferred) { _ in
                try connection.rowCounts(
                    tablesListedBy: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            }
        }
    }

    /// Fails queued work, lets running work finish, and closes every connection.
    public func close() async {
        inline.close()
        await readers.stopAndWait()
        // The writer closes last, so its close checkpoints the WAL into the main file.
        await writer.stopAndWait()
        gate.close()
    }
}
