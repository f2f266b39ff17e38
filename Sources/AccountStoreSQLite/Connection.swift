import CSQLite
import AccountStore
import AccountStoreSQL

/// One SQLite connection, used by one thread at a time, with its cache of prepared statements.
///
/// Every result code passes ``check(_:)``, which turns failures into ``StoreError``.
final class Connection {
    /// What a connection is opened for.
    enum Role { case writer, reader }

    private let handle: OpaquePointer
    private var compiled = PreparedStatements<OpaquePointer>()

    /// Opens `path` (creating it if needed) and sets the pragmas every connection of the store uses.
    init(path: String, role: Role) throws {
        _ = Self.configureLibrary
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw StoreError.unavailable(reason: "cannot open database at \(path): \(message)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        try check(sqlite3_busy_timeout(db, 5_000))
        try configure(role)
    }

    /// Process-wide settings, applied once before the first connection opens. Memory statistics
    /// (on by default) take a global mutex on every allocation, shared by every connection.
    private static let configureLibrary: Void = { _ = csqlite_disable_memory_statistics() }()

    deinit {
        for statement in compiled.removeAll() { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    private func configure(_ role: Role) throws {
        switch role {
        case .writer:
            // journal_mode answers with the mode in force; a file system without shared memory
            // support silently keeps the old one.
            let mode = try rowsOnce("PRAGMA journal_mode=WAL") { $0.text(0) }.first
            guard mode?.lowercased() == "wal" else {
                throw StoreError.unavailable(reason: "WAL journal mode not available")
            }
            try executeScript("PRAGMA synchronous=NORMAL")
        case .reader:
            // Writes belong to the writer thread; a write slipped into `read` fails instead of
            // racing the writer for the lock.
            try executeScript("PRAGMA query_only=ON")
        }
        try executeScript("PRAGMA foreign_keys=ON")
    }

    /// The one gate every SQLite result code passes.
    @discardableResult
    func check(_ rc: Int32) throws -> Int32 {
        switch rc {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return rc
        default: throw StoreError(sqliteCode: rc, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Steps a prepared statement with `parameters` bound, calls `body` with every row, and resets it.
    private func run(_ statement: OpaquePointer, _ parameters: [SQLValue], forEachRow body: (any SQLRow) throws -> Void) throws {
        defer {
            // reset repeats the error of the last step, which the loop below already threw.
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in parameters.enumerated() {
            try check(bind(value, to: statement, at: Int32(index + 1)))
        }
        while try check(sqlite3_step(statement)) == SQLITE_ROW {
            try body(Row(statement: statement))
        }
    }

    /// Runs a script of several statements (migrations); nothing is bound, nothing cached.
    func executeScript(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    /// Whether no transaction is open (SQLite may have rolled one back by itself after an error).
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// The statement compiled for this connection, kept for its life (SQLite takes `?` as written).
    private func prepared(_ statement: SQLStatement) throws -> OpaquePointer {
        if let handle = compiled[statement] { return handle }
        let handle = try prepare(statement.text, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        compiled[statement] = handle
        return handle
    }

    private func prepare(_ sql: String, flags: UInt32) throws -> OpaquePointer {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil))
        guard let statement else { throw StoreError.failure(reason: "empty statement") }
        return statement
    }

    private func bind(_ value: SQLValue, to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch value {
        case .integer(let number):
            return sqlite3_bind_int64(statement, index, number)
        case .bool(let flag):
            return sqlite3_bind_int64(statement, index, flag ? 1 : 0)
        case .text(let text):
            return sqlite3_bind_text(statement, index, text, -1, csqlite_transient())
        case .blob(let bytes):
            // An empty array has no base address, and a NULL pointer would bind NULL.
            guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return bytes.withUnsafeBytes {
                sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), csqlite_transient())
            }
        case .null:
            return sqlite3_bind_null(statement, index)
        }
    }
}

extension Connection: SQLConnection {
    /// Write transactions run one at a time on the writer (`BEGIN IMMEDIATE`), so a row read in
    /// one cannot change before it commits.
    static var locksRowsReadInWriteTransactions: Bool { false }

    func query(_ statement: SQLStatement, _ parameters: [SQLValue], forEachRow body: (any SQLRow) throws -> Void) throws {
        try run(prepared(statement), parameters, forEachRow: body)
    }

    @discardableResult
    func execute(_ statement: SQLStatement, _ parameters: [SQLValue]) throws -> Int {
        try run(prepared(statement), parameters) { _ in }
        return Int(sqlite3_changes(handle))
    }

    /// Also for the pragmas a connection runs once.
    func queryOnce(_ sql: String, forEachRow body: (any SQLRow) throws -> Void) throws {
        let statement = try prepare(sql, flags: 0)
        defer { sqlite3_finalize(statement) }
        try run(statement, [], forEachRow: body)
    }
}

extension Connection {
    /// `PRAGMA data_version`: a number that changes when another connection (of this process or
    /// another) committed since this one last looked; this connection's own commits leave it.
    func dataVersion() throws -> Int64 {
        var version: Int64 = 0
        try query(dataVersionStatement, []) { version = $0.int64(0) }
        return version
    }
}

private let dataVersionStatement = SQLStatement("PRAGMA data_version")
