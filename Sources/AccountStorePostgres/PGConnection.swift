import Foundation
import CLibPQ
import AccountStore
import AccountStoreSQL

/// One libpq connection, used by one thread at a time, with its prepared statements.
///
/// Every result passes ``check(_:)``, which turns failures into ``StoreError``. A connection that
/// breaks stays broken until ``reconnectIfNeeded()`` resets it at the start of the next job.
final class PGConnection {
    let handle: OpaquePointer
    /// The names of the statements prepared on this connection, by slot; emptied when the
    /// connection is reset, because the server forgets them with the session.
    private var prepared = PreparedStatements<String>()
    /// The SQLSTATE of the last failed statement, so a transaction can tell whether to try again
    /// even when the body turned the error into another.
    private(set) var lastSQLState: String?

    /// Connects with `url` (a `postgres://` URI or a `key=value` string).
    ///
    /// `connectTimeout` and TCP keepalives apply unless `url` sets its own.
    /// `applicationName` is what `pg_stat_activity` shows for it.
    init(url: String, connectTimeout: Int = 2, applicationName: String = "account-server") throws {
        // Later entries override earlier ones, so the URL expanded last wins over these defaults.
        let settings: [(String, String)] = [
            ("connect_timeout", String(connectTimeout)),
            ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
            ("application_name", applicationName),
            ("dbname", url),
        ]
        let connection = withCStrings(settings.map(\.0)) { keywords in
            withCStrings(settings.map(\.1)) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else { throw StoreError.unavailable(reason: StoreError.Reason("PostgreSQL: out of memory", sqlState: SQLState.cannotConnect)) }
        guard PQstatus(connection) == CONNECTION_OK else {
            // Thrown before `handle` is set, so deinit does not run and finish it a second time.
            let reason = Self.message(of: connection)
            PQfinish(connection)
            throw StoreError.unavailable(reason: StoreError.Reason("cannot connect to PostgreSQL: \(reason)", sqlState: SQLState.cannotConnect))
        }
        handle = connection
        cpq_silence_notices(handle)
    }

    deinit { PQfinish(handle) }

    /// libpq's last message for this connection, on one line. It names host and port, never the password.
    var lastError: String { Self.message(of: handle) }

    private static func message(of handle: OpaquePointer) -> String {
        guard let message = PQerrorMessage(handle) else { return "unknown error" }
        return String(cString: message).split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
    }

    /// Whether the connection is usable (it may still fail on the next call if the server went away).
    var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether a transaction is open (or failed and awaiting ROLLBACK).
    var inTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Whether the open transaction failed: the server ignores everything but ROLLBACK.
    var transactionFailed: Bool { PQtransactionStatus(handle) == PQTRANS_INERROR }

    /// Forgets the last SQLSTATE, before a transaction starts.
    func clearLastSQLState() { lastSQLState = nil }

    /// Connects again if the connection broke; throws `.unavailable` if the server is still away.
    func reconnectIfNeeded() throws {
        guard !isConnected else { return }
        _ = prepared.removeAll()
        PQreset(handle)
        guard isConnected else {
            throw StoreError.unavailable(reason: StoreError.Reason("cannot reconnect to PostgreSQL: \(lastError)", sqlState: SQLState.cannotConnect))
        }
        cpq_silence_notices(handle)
    }

    /// The one gate every libpq result passes: returns it when it succeeded, throws otherwise.
    func check(_ result: OpaquePointer?) throws -> PGResult {
        guard let result else { throw StoreError(postgresMessage: lastError, sqlState: nil, connectionLost: !isConnected) }
        let owned = PGResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return owned
        default:
            lastSQLState = owned.errorField(cpq_diag_sqlstate())
            throw StoreError(
                postgresMessage: owned.errorField(cpq_diag_message_primary()) ?? lastError,
                sqlState: lastSQLState,
                constraint: owned.errorField(cpq_diag_constraint_name()),
                connectionLost: !isConnected)
        }
    }

    /// Runs the statement prepared as `name` with `parameters`.
    private func run(_ name: String, _ parameters: [SQLValue]) throws -> PGResult {
        let encoded = parameters.map(EncodedParameter.init)
        defer { encoded.forEach { $0.free() } }
        let values = encoded.map { UnsafePointer($0.pointer) }
        let lengths = encoded.map(\.length)
        let formats = encoded.map(\.format)
        // Results come back as text: integers and booleans parse simply, bytea arrives hex-encoded.
        return try check(PQexecPrepared(handle, name, Int32(encoded.count), values, lengths, formats, 0))
    }

    /// Runs a script of statements with no parameters (transaction control, migrations), unprepared.
    func executeScript(_ sql: String) throws {
        _ = try check(PQexec(handle, sql))
    }

    /// The name `statement` is prepared under on this connection, preparing it on first use with
    /// its placeholders numbered.
    private func prepared(_ statement: SQLStatement) throws -> String {
        if let name = prepared[statement] { return name }
        let name = "s\(statement.slot)"
        // Parameter types are left to the server, which infers them from the columns they meet.
        _ = try check(PQprepare(handle, name, Placeholders.numbered(statement.text), 0, nil))
        prepared[statement] = name
        return name
    }
}

extension PGConnection: SQLConnection {
    /// Write transactions run side by side (`READ COMMITTED`), so the rows a decision is read from
    /// are locked until commit.
    static var locksRowsReadInWriteTransactions: Bool { true }

    func query(_ statement: SQLStatement, _ parameters: [SQLValue], forEachRow body: (any SQLRow) throws -> Void) throws {
        try run(prepared(statement), parameters).forEachRow(body)
    }

    @discardableResult
    func execute(_ statement: SQLStatement, _ parameters: [SQLValue]) throws -> Int {
        try run(prepared(statement), parameters).changedRows
    }

    func queryOnce(_ sql: String, forEachRow body: (any SQLRow) throws -> Void) throws {
        try check(PQexec(handle, sql)).forEachRow(body)
    }
}

/// Calls `body` with a C array of C strings that lives until `body` returns.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
