import AccountStore
import AccountStoreSQL
import Foundation

extension PGConnection {
    /// What a transaction may do.
    enum TransactionKind {
        /// `REPEATABLE READ READ ONLY`: one snapshot for the whole body; writes fail.
        case read
        /// `READ COMMITTED`: each statement sees what committed before it. Contended writes are
        /// single conditional statements (`UPDATE … WHERE used_at IS NULL`, `attempts + 1`,
        /// `ON CONFLICT`), which PostgreSQL re-checks on the latest row version after waiting for
        /// a competing writer's lock, so a race has exactly one winner; and the rows a decision is
        /// read from (a refresh token, its session, a code) are read `FOR UPDATE`, so a second
        /// transaction deciding on the same row waits for the first and then sees its outcome.
        case write
    }

    /// How often a transaction runs in all when it keeps losing races.
    static let maximumTries = 5

    /// Runs `body` in a transaction, and again (up to ``maximumTries`` in all, after a short
    /// random pause) when it fails with a serialization failure or deadlock: SQLSTATE 40001 or
    /// 40P01 from the database, or ``StoreError/serializationFailure`` from the body. Rolls back
    /// and rethrows any other error, and the last one when the tries run out.
    func transaction<T>(_ kind: TransactionKind, _ body: (SQLTransaction) throws -> T) throws -> T {
        var tries = 1
        while true {
            clearLastSQLState()
            do {
                return try transactionOnce(kind, body)
            } catch where tries < Self.maximumTries && isConnected && Self.mayRunAgain(error, lastSQLState: lastSQLState) {
                Self.pause(beforeTry: tries + 1)
                tries += 1
            }
        }
    }

    /// Whether a failed transaction lost a race and may succeed when it runs again. The
    /// connection's last SQLSTATE counts even when the body turned the error into another.
    private static func mayRunAgain(_ error: any Error, lastSQLState: String?) -> Bool {
        SQLState.isRetryable(lastSQLState) || SQLState.isRetryable((error as? StoreError)?.sqlState)
    }

    /// Sleeps a random time up to 2 ms doubled for each earlier try (at most 32 ms), so racing
    /// transactions that failed together do not meet again at once.
    private static func pause(beforeTry attempt: Int) {
        let ceiling = min(32_000, 2_000 << max(0, attempt - 2))
        usleep(useconds_t(Int.random(in: 0...ceiling)))
    }

    /// Runs `statement`, and once more after reconnecting if the connection turns out to be
    /// lost: for a first statement that changes nothing, on a connection whose server restarted
    /// since its last use (its socket looked fine until written to).
    func retryingOnceIfDisconnected<T>(_ statement: () throws -> T) throws -> T {
        do {
            return try statement()
        } catch where !isConnected {
            try reconnectIfNeeded()
            return try statement()
        }
    }

    /// Runs `body`, which runs one read statement, outside a transaction block: one round trip
    /// instead of three (`BEGIN`, the statement, `COMMIT`), and one statement sees one snapshot
    /// by itself. Once more after reconnecting if the connection turns out to be lost.
    func singleStatement<T>(_ body: (SQLTransaction) throws -> T) throws -> T {
        try retryingOnceIfDisconnected {
            let transaction = SQLTransaction(connection: self, writes: false)
            defer { transaction.end() }
            return try body(transaction)
        }
    }

    private func transactionOnce<T>(_ kind: TransactionKind, _ body: (SQLTransaction) throws -> T) throws -> T {
        try retryingOnceIfDisconnected {
            switch kind {
            case .read: try executeScript("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            case .write: try executeScript("BEGIN ISOLATION LEVEL READ COMMITTED")
            }
        }
        let transaction = SQLTransaction(connection: self, writes: kind == .write)
        defer { transaction.end() }
        do {
            let result = try body(transaction)
            // COMMIT of a failed transaction rolls back and still reports success, so a body that
            // swallowed a statement's error must not look committed.
            guard !transactionFailed else {
                throw StoreError.failure(reason: "a statement failed inside the transaction; it was rolled back")
            }
            try executeScript("COMMIT")
            return result
        } catch {
            if isConnected && inTransaction { _ = try? executeScript("ROLLBACK") }
            throw error
        }
    }
}
