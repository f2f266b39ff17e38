import AccountStore

/// The ``StoreTransaction`` handed to `read` and `write` bodies: statements on one connection,
/// usable only until the body returns.
final class PostgresTransaction: StoreTransaction {
    private let connection: PGConnection
    private var isOpen = true

    init(connection: PGConnection) {
        self.connection = connection
    }

    /// Makes every later call throw; called when the transaction commits or rolls back.
    func end() { isOpen = false }

    /// The connection, if the transaction is still open.
    func open() throws -> PGConnection {
        guard isOpen else {
            throw StoreError.failure(reason: "transaction used outside its read or write closure")
        }
        return connection
    }

    /// Rows of one query, mapped.
    func query<T>(_ sql: String, _ parameters: [PGValue], row: (PGRow) throws -> T) throws -> [T] {
        try open().query(sql, parameters).rows(row)
    }

    /// The first row of one query, mapped.
    func first<T>(_ sql: String, _ parameters: [PGValue], row: (PGRow) throws -> T) throws -> T? {
        try query(sql, parameters, row: row).first
    }

    /// Runs a statement; returns how many rows changed.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PGValue]) throws -> Int {
        try open().execute(sql, parameters)
    }
}
