import AccountStore
import AccountStoreCache
import AccountStoreSQL
import Foundation
import Workers

/// The ``AccountStore`` on one SQLite file: one writer thread, a few reader threads, WAL mode.
///
/// Writes are serialized on the writer's connection (`BEGIN IMMEDIATE` … `COMMIT`), so they never
/// fight over the lock; reads run in a deferred transaction on a reader connection and see one
/// snapshot. Callers suspend while a store thread does the work, never blocking the task pool.
/// A few more read connections serve ``readInline(_:)`` on the caller's own thread. A cache in
/// front of it (`CachingAccountStore`) learns of other connections' commits through
/// ``changeFeed(reportingTo:)``.
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
    /// Told after each committed write that queued mail.
    private let mailQueued = MailQueuedHook()
    private let path: String

    /// Opens (creating if needed) the database at `path`, with `readers` read connections (at
    /// least one) on threads of their own, and up to `inlineReaders` more, opened when first needed,
    /// lent to callers' threads. Does not migrate; call ``migrate()``.
    ///
    /// The file and SQLite's files beside it are mode `0600` whatever the umask; existing ones open
    /// to other users are tightened (see ``tightenedFiles``).
    ///
    /// - Throws: `StoreError.unavailable` if the file cannot be opened, made private, or put in WAL mode.
    public init(path: String, readers: Int = 2, inlineReaders: Int = 4) throws {
        tightenedFiles = try DatabaseFiles.secure(path)
        self.path = path
        // The writer opens first: it creates the file and switches it to WAL for everyone.
        let writerConnection = try Connection(path: path, role: .writer)
        let readerConnections = try (0..<max(1, readers)).map { _ in try Connection(path: path, role: .reader) }
        writer = .store(name: "sqlite-writer", connections: [writerConnection])
        gate = WriterGate(writerConnection)
        self.readers = .store(name: "sqlite-reader", connections: readerConnections)
        inline = InlineReaders(path: path, limit: max(0, inlineReaders))
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
    /// free right now; busy if none is.
    public func readInline<T>(_ body: (any StoreTransaction) throws -> T) throws -> InlineAnswer<T> {
        try inline.read(body)
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction on the writer; rolls back and rethrows if it throws.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        let (result, queuedMail) = try await onWriter { connection in
            try connection.transaction(.immediate) { tx in (try body(tx), tx.queuedMail) }
        }
        mailQueued.committed(queued: queuedMail)
        return result
    }

    public func whenMailQueued(_ hook: @escaping @Sendable () -> Void) { mailQueued.set(hook) }

    /// Runs `work` on the writer thread with the writer connection.
    private func onWriter<T: Sendable>(_ work: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await writer.run { [gate] _ in try gate.use(work) }
    }

    /// A feed that tells the cache `model` belongs to of commits to this file that did not come
    /// through this store's writer: `CachingAccountStore(store, capacity: n, feed: store.changeFeed(reportingTo:))`.
    /// Its check borrows an inline read connection, so a store opened with `inlineReaders` of 0
    /// leaves the model unconfirmed, and every lookup reads.
    public func changeFeed(reportingTo model: SessionReadModel) -> SQLiteChangeFeed {
        SQLiteChangeFeed(model: model, inline: inline, gate: gate, path: path)
    }

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
