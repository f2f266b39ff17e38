import AccountStore

extension PGConnection {
    /// What a transaction may do.
    enum TransactionKind {
        /// `REPEATABLE READ READ ONLY`: one snapshot for the whole body; writes fail.
        case read
        /// `READ COMMITTED`: each statement sees what committed before it. The store's writes are
        /// single conditional statements (`UPDATE … WHERE used_at IS NULL`, `attempts + 1`,
        /// `ON CONFLICT DO NOTHING`), which PostgreSQL re-checks on the latest row version after
        /// waiting for a competing writer's lock, so a race has exactly one winner.
        case write
    }

    /// How often a transaction runs when the database reports a serialization failure or deadlock.
    static let maximumTries = 5

    /// Runs `body` in a transaction, again (up to ``maximumTries`` in all) when it fails with
    /// SQLSTATE 40001 or 40P01; rolls back and rethrows any other error.
    func transaction<T>(_ kind: TransactionKind, _ body: (PostgresTransaction) throws -> T) throws -> T {
        var tries = 1
        while true {
            clearLastSQLState()
            do {
                return try transactionOnce(kind, body)
            } catch where tries < Self.maximumTries && isConnected && SQLState.isRetryable(lastSQLState) {
                tries += 1
            }
        }
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

    private func transactionOnce<T>(_ kind: TransactionKind, _ body: (PostgresTransaction) throws -> T) throws -> T {
        try retryingOnceIfDisconnected {
            switch kind {
            case .read: try executeScript("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            case .write: try executeScript("BEGIN ISOLATION LEVEL READ COMMITTED")
            }
        }
        let transaction = PostgresTransaction(connection: self)
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
