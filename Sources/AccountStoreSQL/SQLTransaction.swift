import AccountStore

/// The ``StoreTransaction`` of every SQL backend, over one connection: the store's statements,
/// written once, and the decoding of their rows.
///
/// A backend opens the transaction on its connection (`BEGIN …`), hands this to the body, calls
/// ``end()`` and commits or rolls back. Every call after ``end()`` throws, so a transaction that
/// escaped its closure cannot run statements in a later one.
///
/// A statement that changes cached rows (``SQLStatement/changedTable``) runs only with the row it
/// changes named, which the observer hears first (``announceChanges(to:)``); one run without, or
/// naming a row it does not change, throws before it reaches the database.
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
    /// Told of each cached row before a statement changes it.
    private var observer: (any ChangeObserver)?

    /// - Parameters:
    ///   - connection: the connection the transaction was begun on.
    ///   - writes: whether it is a write transaction (which may lock the rows it decides on).
    public init(connection: any SQLConnection, writes: Bool) {
        self.connection = connection
        locksRowsItReads = writes && type(of: connection).locksRowsReadInWriteTransactions
    }

    /// Makes every later call throw; called when the transaction commits or rolls back.
    public func end() { isOpen = false }

    public func announceChanges(to observer: any ChangeObserver) { self.observer = observer }

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

    /// Rows of one query, mapped; `changing` names the cached row it changes, if it changes one.
    func query<T>(
        _ statement: SQLStatement, _ parameters: [SQLValue], changing row: ChangedRow? = nil, row transform: (any SQLRow) throws -> T
    ) throws -> [T] {
        try announce(statement, row)
        var rows: [T] = []
        try open().query(statement, parameters) { rows.append(try transform($0)) }
        return rows
    }

    /// The first row of one query, mapped (the statement still runs to its end).
    func first<T>(
        _ statement: SQLStatement, _ parameters: [SQLValue], changing row: ChangedRow? = nil, row transform: (any SQLRow) throws -> T
    ) throws -> T? {
        try announce(statement, row)
        var first: T?
        try open().query(statement, parameters) { if first == nil { first = try transform($0) } }
        return first
    }

    /// Runs a statement; returns how many rows changed.
    @discardableResult
    func execute(_ statement: SQLStatement, _ parameters: [SQLValue], changing row: ChangedRow? = nil) throws -> Int {
        try announce(statement, row)
        return try open().execute(statement, parameters)
    }

    /// Tells the observer that `row` is about to change, once sure that `row` is named exactly when
    /// the statement changes cached rows, and names what it changes.
    private func announce(_ statement: SQLStatement, _ row: ChangedRow?) throws {
        switch (statement.changedTable, row) {
        case (nil, nil):
            return
        case (let table?, let row?) where table.isNamed(by: row):
            observer?.willChange(row)
        case (let table?, nil):
            throw StoreError.failure(reason: "a statement changing \(table.rawValue) rows ran without naming the row it changes")
        case (let table, _?):
            throw StoreError.failure(reason: "a statement named a row it does not change (it changes \(table?.rawValue ?? "no cached") rows)")
        }
    }
}
