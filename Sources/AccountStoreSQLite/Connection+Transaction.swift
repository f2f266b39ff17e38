import AccountStore
import AccountStoreSQL

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
    func transaction<T>(_ kind: TransactionKind, _ body: (SQLTransaction) throws -> T) throws -> T {
        try execute(kind == .immediate ? Control.beginImmediate : Control.begin, [])
        let transaction = SQLTransaction(connection: self, writes: kind == .immediate)
        defer { transaction.end() }
        do {
            let result = try body(transaction)
            try execute(Control.commit, [])
            return result
        } catch {
            if !isAutocommit { _ = try? execute(Control.rollback, []) }
            throw error
        }
    }
}

/// Transaction control, prepared once per connection like the store's statements.
private enum Control {
    static let begin = SQLStatement("BEGIN")
    static let beginImmediate = SQLStatement("BEGIN IMMEDIATE")
    static let commit = SQLStatement("COMMIT")
    static let rollback = SQLStatement("ROLLBACK")
}
