import Synchronization

/// One statement of the store, written once for every backend: `?` for each parameter, in the
/// order they are bound, and SQL that SQLite and PostgreSQL both accept. A backend whose database
/// numbers its parameters (PostgreSQL's `$1`) rewrites the text once, when it prepares it.
///
/// Each statement gets a slot of its own for the life of the process, so a connection finds its
/// prepared copy by an array index (``PreparedStatements``), not by hashing the text. Make
/// statements once, as constants: every one made holds its slot for good.
///
/// ```swift
/// static let byID = SQLStatement("SELECT id, kid FROM signing_keys WHERE kid = ?")
/// ```
public struct SQLStatement: Sendable {
    /// The SQL, with `?` placeholders.
    public let text: String
    /// Where connections cache this statement once prepared; unique in the process.
    public let slot: Int

    public init(_ text: String) {
        self.text = text
        slot = Self.nextSlot.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    private static let nextSlot = Atomic<Int>(0)
}

/// A read a write transaction decides on (a refresh token before it is used, its session before
/// it is touched, a code before it is spent or counted), in two forms: as written, and with
/// `FOR UPDATE` for write transactions of a backend whose writers run side by side.
///
/// There a second transaction reading the same row waits until the first commits and then reads
/// what it wrote, as on SQLite, where write transactions run one at a time and the plain form is
/// all there is. Locking a row that does not exist locks nothing; inserts race through unique
/// keys instead.
public struct LockableRead: Sendable {
    /// The statement as written, for read transactions and backends without row locks.
    public let plain: SQLStatement
    /// The statement with ` FOR UPDATE` (or the given lock clause) appended.
    public let locking: SQLStatement

    /// - Parameters:
    ///   - text: a `SELECT` that `FOR UPDATE` may end.
    ///   - lockClause: what ends the locking form: ` FOR UPDATE OF s` locks only the rows of the
    ///     table aliased `s` in a join.
    public init(_ text: String, lockClause: String = " FOR UPDATE") {
        plain = SQLStatement(text)
        locking = SQLStatement(text + lockClause)
    }
}
