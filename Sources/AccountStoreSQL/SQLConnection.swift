/// What ``SQLTransaction`` needs of a database connection: run a prepared statement, and the one
/// way the dialects differ that the SQL cannot hide.
///
/// The store's statements are written once (``SQLStatement``): `?` placeholders, which a backend
/// rewrites to its own form when it prepares a statement, never per run; `blob` and `bool`
/// values, which it binds as its own types; `ON CONFLICT … DO UPDATE`, `excluded.` and
/// `RETURNING`, which SQLite (3.35 and later) and PostgreSQL spell alike. Schemas differ more
/// (types, constraint names), so each backend keeps its own migrations.
///
/// A connection is used by one thread at a time; a conforming type is a `final class`, so the
/// generic transaction calls it without boxing.
public protocol SQLConnection: AnyObject {
    /// The backend's result row.
    associatedtype Row: SQLRow

    /// Whether write transactions read the rows their decisions depend on `FOR UPDATE`
    /// (``LockableRead``): true where write transactions run side by side and the database has
    /// row locks (PostgreSQL), false where they run one at a time (SQLite).
    static var locksRowsReadInWriteTransactions: Bool { get }

    /// Runs `statement` with `parameters` (prepared and cached on first use) and maps every row.
    func query<T>(_ statement: SQLStatement, _ parameters: [SQLValue], row: (Row) throws -> T) throws -> [T]

    /// Runs `statement` with `parameters` to completion; returns how many rows it changed.
    @discardableResult func execute(_ statement: SQLStatement, _ parameters: [SQLValue]) throws -> Int

    /// Runs `sql`, made at run time, with nothing bound and without caching it, and maps every row.
    func queryOnce<T>(_ sql: String, row: (Row) throws -> T) throws -> [T]
}
