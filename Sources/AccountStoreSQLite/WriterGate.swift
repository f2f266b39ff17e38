import AccountStore
import Synchronization

/// The writer's connection, used by the writer thread for every transaction and, only while the
/// writer is idle, by the change feed's check for commits that did not come through it
/// (``SQLiteChangeFeed``).
///
/// `PRAGMA data_version` on a connection changes when any *other* connection committed. The writer
/// makes every commit of this store, so its own number moves only for writes of other processes
/// (a second server, `keys rotate`, an operator's `sqlite3`), or of another store on the same file
/// in this process.
final class WriterGate: Sendable {
    private struct State {
        var writer: Writer?
        /// The writer's `data_version` when the model last knew of every foreign commit.
        var confirmedVersion: Int64?
    }

    private let state: Mutex<State>

    init(_ connection: Connection) {
        state = Mutex(State(writer: Writer(connection)))
    }

    /// Runs `body` with the writer connection; the writer thread's way to it.
    func use<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try state.withLock { state in
            guard let writer = state.writer else { throw StoreError.unavailable(reason: "store is closed") }
            return try body(writer.connection)
        }
    }

    /// Whether another connection committed since the last call (`onChange` has then run, before
    /// any other caller can hear `false`); `nil` when that cannot be known now without waiting
    /// (the writer is in a transaction, or the store closed).
    func foreignCommits(onChange: () -> Void) -> Bool? {
        let answer: Bool?? = state.withLockIfAvailable { state -> Bool? in
            guard let writer = state.writer, let version = try? writer.connection.dataVersion() else { return nil }
            if version == state.confirmedVersion { return false }
            state.confirmedVersion = version
            onChange()
            return true
        }
        return answer ?? nil
    }

    /// Lets go of the connection (it closes when the writer thread has let go too).
    func close() {
        let writer = state.withLock { state in
            defer { state.writer = nil }
            return state.writer
        }
        // Released here, outside the lock.
        withExtendedLifetime(writer) {}
    }

    /// The connection, used only under the lock (SQLite's NOMUTEX contract: one thread at a time).
    private final class Writer: @unchecked Sendable {
        let connection: Connection
        init(_ connection: Connection) { self.connection = connection }
    }
}
