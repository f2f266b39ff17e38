/// What ``SQLTransaction`` needs of a database connection: run a prepared statement, and the one
/// way the dialects differ that the SQL cannot hide.
///
/// The store's statements are written once (``SQLStatement``): `?` placeholders, which a backend
/// rewrites to its own form when it prepares a statement, never per run; `blob` and `bool`
/// values, which it binds as its own types; `ON CONFLICT … DO UPDATE`, `excluded.` and
/// `RETURNING`, which SQLite (3.35 and later) and PostgreSQL spell alike. The schema is written
/// once too (``SchemaBaseline``), in each backend's spelling of its types (``SchemaDialect``).
///
/// A connection is used by one thread at a time. Conforming types are `final class`es and the
/// requirements are not generic, so the transaction calls them through `any SQLConnection`
/// without boxing or looking up generic metadata on each statement.
public protocol SQLConnection: AnyObject {
    /// Whether write transactions read the rows their decisions depend on `FOR UPDATE`
    /// (``LockableRead``): true where write transactions run side by side and the database has
    /// row locks (PostgreSQL), false where they run one at a time (SQLite).
    static var locksRowsReadInWriteTransactions: Bool { get }

    /// Runs `statement` with `parameters` (prepared and cached on first use) and calls `body`
    /// with each result row, in order.
    func query(_ statement: SQLStatement, _ parameters: [SQLValue], forEachRow body: (any SQLRow) throws -> Void) throws

    /// Runs `statement` with `parameters` to completion; returns how many rows it changed.
    @discardableResult func execute(_ statement: SQLStatement, _ parameters: [SQLValue]) throws -> Int

    /// Runs `sql`, made at run time, with nothing bound and without caching it, and calls `body`
    /// with each result row.
    func queryOnce(_ sql: String, forEachRow body: (any SQLRow) throws -> Void) throws
}

extension SQLConnection {
    /// Every row of `statement`, mapped; for a backend's own statements (migrations).
    public func rows<T>(_ statement: SQLStatement, _ parameters: [SQLValue], _ transform: (any SQLRow) throws -> T) throws -> [T] {
        var rows: [T] = []
        try query(statement, parameters) { rows.append(try transform($0)) }
        return rows
    }

    /// Every row of `sql`, made at run time, mapped.
    public func rowsOnce<T>(_ sql: String, _ transform: (any SQLRow) throws -> T) throws -> [T] {
        var rows: [T] = []
        try queryOnce(sql) { rows.append(try transform($0)) }
        return rows
    }
}
