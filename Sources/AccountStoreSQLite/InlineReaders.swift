import AccountStore
import Synchronization

/// Read connections lent for a moment to whichever thread asks, never waited for.
///
/// A local SQLite read in WAL mode takes microseconds and never waits for the writer, so a thread
/// that must not block (an HTTP event thread) may run it itself, if a connection is free at once.
final class InlineReaders: Sendable {
    private struct State {
        var free: [Lent]
        var closed = false
    }

    /// A connection in the pool; used by one thread at a time (SQLite's NOMUTEX contract).
    private final class Lent: @unchecked Sendable {
        let connection: Connection
        init(_ connection: Connection) { self.connection = connection }
    }

    private let state: Mutex<State>

    init(_ connections: [Connection]) {
        state = Mutex(State(free: connections.map(Lent.init)))
    }

    /// Runs `body` in a deferred transaction on a free connection, or returns `nil` if none is free.
    func read<T>(_ body: (any StoreTransaction) throws -> T) throws -> T? {
        let lent: Lent? = state.withLock { state in
            if state.closed { return nil }
            return state.free.popLast()
        }
        guard let lent else {
            if state.withLock({ $0.closed }) { throw StoreError.unavailable(reason: "store is closed") }
            return nil
        }
        defer {
            state.withLock { state in
                // After close the connection is dropped here, which closes it.
                if !state.closed { state.free.append(lent) }
            }
        }
        return try lent.connection.transaction(.deferred) { try body($0) }
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
