import AccountStore
import Synchronization

/// Read connections lent for a moment to whichever thread asks, never waited for.
///
/// A local SQLite read in WAL mode takes microseconds and never waits for the writer, so a thread
/// that must not block (an HTTP event thread) may run it itself, if a connection is free at once.
/// Connections are opened on first need, up to a limit, so a store nobody reads inline holds none.
final class InlineReaders: Sendable {
    private struct State {
        var free: [Lent] = []
        var opened = 0
        var closed = false
    }

    /// A connection in the pool; used by one thread at a time (SQLite's NOMUTEX contract).
    final class Lent: @unchecked Sendable {
        let connection: Connection
        /// The connection's `data_version` when the change feed last made sure that nothing but the
        /// store's own writer had committed (see ``SQLiteChangeFeed``); `nil` before.
        var confirmedVersion: Int64?
        /// The WAL-index header read just before that confirmation: while it reads the same,
        /// nobody has committed since, and the check needs no statement.
        var confirmedHeader: WALIndexWatch.Header?
        /// The `-shm` file mapped for this connection's checks, once tried (`nil` if it failed).
        var walIndex: WALIndexWatch??
        init(_ connection: Connection) { self.connection = connection }
    }

    /// What a caller gets from the pool.
    private enum Take { case lent(Lent), open, none, closed }

    private let path: String
    private let limit: Int
    private let state = Mutex(State())

    init(path: String, limit: Int) {
        self.path = path
        self.limit = limit
    }

    /// Runs `body` in a deferred transaction on a free connection, or answers busy if none is
    /// free and no more may be opened.
    func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> InlineAnswer<T> {
        try lend { lent in try lent.connection.transaction(.deferred) { try body($0) } }
    }

    /// Runs `body` with a free connection, or answers busy if none is free and no more may be opened.
    func lend<T>(_ body: (Lent) throws -> T) throws -> InlineAnswer<T> {
        let take: Take = state.withLock { state in
            if state.closed { return .closed }
            if let lent = state.free.popLast() { return .lent(lent) }
            guard state.opened < limit else { return .none }
            state.opened += 1
            return .open
        }
        let lent: Lent
        switch take {
        case .closed: throw StoreError.unavailable(reason: "store is closed")
        case .none: return .busy
        case .lent(let free): lent = free
        case .open:
            do {
                lent = Lent(try Connection(path: path, role: .reader))
            } catch {
                state.withLock { $0.opened -= 1 }
                throw error
            }
        }
        defer {
            state.withLock { state in
                // After close the connection is dropped here, which closes it.
                if !state.closed { state.free.append(lent) }
            }
        }
        return .answered(try body(lent))
    }

    /// Closes the free connections now and any lent one when it comes back.
    func close() {
        // Taken out of the lock so that closing the connections happens outside it.
        let free = state.withLock { state in
            state.closed = true
            defer { state.free = [] }
            return state.free
        }
        withExtendedLifetime(free) {}
    }
}
