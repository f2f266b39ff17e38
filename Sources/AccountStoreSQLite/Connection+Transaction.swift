import AccountStore

extension Connection {
    /// How a transaction takes its locks.
    enum TransactionKind {
        /// `BEGIN`: reads one snapshot, taken at the first read.
        case deferred
        /// `BEGIN IMMEDIATE`: holds the write lock from the start.
        case immediate
    }

    /// Runs `body` between BEGIN and COMMIT; rolls back and rethrows when `body` or COMMIT throws.
    ///
    /// The transaction object refuses every call once this returns.
    func transaction<T>(_ kind: TransactionKind, _ body: (SQLiteTransaction) throws -> T) throws -> T {
        try execute(kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        let transaction = SQLiteTransaction(connection: self, writes: kind == .immediate)
        defer { transaction.end() }
        do {
            let result = try body(transaction)
            try execute("COMMIT")
            return result
        } catch {
            if !isAutocommit { _ = try? execute("ROLLBACK") }
            throw error
        }
    }
}
