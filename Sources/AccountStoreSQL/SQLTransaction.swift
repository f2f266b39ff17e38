import AccountStore

/// The ``StoreTransaction`` of every SQL backend, over one connection: the store's statements,
/// written once, and the decoding of their rows.
///
/// A backend opens the transaction on its connection (`BEGIN …`), hands this to the body, calls
/// ``end()`` and commits or rolls back. Every call after ``end()`` throws, so a transaction that
/// escaped its closure cannot run statements in a later one.
public final class SQLTransaction: StoreTransaction {
    // Not generic over the connection: every method here is then compiled once, specialized, in
    // this module, where a generic class ran unspecialized and looked up metadata (`[T]`, `T?`)
    // on every call.
    private let connection: any SQLConnection
    private var isOpen = true
    /// Whether the transaction queued outbox rows: its store tells the mail hook once it commits.
    public internal(set) var queuedMail = false
    /// Whether reads a decision depends on take their row locks (see ``LockableRead``).
    private let locksRowsItReads: Bool

    /// - Parameters:
    ///   - connection: the connection the transaction was begun on.
    ///   - writes: whether it is a write transaction (which may lock the rows it decides on).
    public init(connection: any SQLConnection, writes: Bool) {
        self.connection = connection
        locksRowsItReads = writes && type(of: connection).locksRowsReadInWriteTransactions
    }

    /// Makes every later call throw; called when the transaction commits or rolls back.
    public func end() { isOpen = false }

    /// The connection, if the transaction is still open.
    private func open() throws -> any SQLConnection {
        guard isOpen else {
            throw StoreError.failure(reason: "transaction used outside its read or write closure")
        }
        return connection
    }

    /// The form of `read` this transaction runs.
    func statement(_ read: LockableRead) -> SQLStatement {
        locksRowsItReads ? read.locking : read.plain
    }

    /// Rows of one query, mapped.
    func query<T>(_ statement: SQLStatement, _ parameters: [SQLValue], row: (any SQLRow) throws -> T) throws -> [T] {
        var rows: [T] = []
        try open().query(statement, parameters) { rows.append(try row($0)) }
        return rows
    }

    /// The first row of one query, mapped (the statement still runs to its end).
    func first<T>(_ statement: SQLStatement, _ parameters: [SQLValue], row: (any SQLRow) throws -> T) throws -> T? {
        var first: T?
        try open().query(statement, parameters) { if first == nil { first = try row($0) } }
        return first
    }

    /// Runs a statement; returns how many rows changed.
    @discardableResult
    func execute(_ statement: SQLStatement, _ parameters: [SQLValue]) throws -> Int {
        try open().execute(statement, parameters)
    }
}
