import AccountStore
import Synchronization

/// One statement of the store, written once for every backend: `?` for each parameter, in the
/// order they are bound, and SQL that SQLite and PostgreSQL both accept. A backend whose database
/// numbers its parameters (PostgreSQL's `$1`) rewrites the text once, when it prepares it.
///
/// Each statement gets a slot of its own for the life of the process, so a connection finds its
/// prepared copy by an array index (``PreparedStatements``), not by hashing the text. Make
/// statements once, as constants: every one made holds its slot for good.
///
/// A statement that updates or deletes rows a cache may hold (``CachedTable``) runs only with the
/// row it changes named (``ChangedRow``); ``SQLTransaction`` refuses it otherwise, so a new write
/// cannot forget to tell the cache.
///
/// ```swift
/// static let byID = SQLStatement("SELECT id, kid FROM signing_keys WHERE kid = ?")
/// ```
public struct SQLStatement: Sendable {
    /// The SQL, with `?` placeholders.
    public let text: String
    /// Where connections cache this statement once prepared; unique in the process.
    public let slot: Int
    /// The cached table whose existing rows the statement updates or deletes, read from its text.
    public let changedTable: CachedTable?

    public init(_ text: String) {
        self.text = text
        slot = Self.nextSlot.wrappingAdd(1, ordering: .relaxed).oldValue
        changedTable = CachedTable.changed(by: text)
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

/// A table whose rows a cache in front of the store may hold (sessions with their accounts).
public enum CachedTable: String, Sendable {
    case users, sessions

    /// Whether `row` names what a change of this table's rows touches: an account for `users`; a
    /// session, or an account (all its sessions), for `sessions`.
    public func isNamed(by row: ChangedRow) -> Bool {
        switch (self, row) {
        case (.users, .user), (.sessions, .user), (.sessions, .session): true
        case (.users, .session): false
        }
    }

    /// The cached table whose existing rows `sql` changes: `UPDATE t`, `DELETE FROM t`,
    /// `REPLACE INTO t`, `INSERT OR REPLACE INTO t`, or `INSERT INTO t … DO UPDATE`; `users` when
    /// it changes both. Plain inserts change no row a cache holds.
    static func changed(by sql: String) -> CachedTable? {
        let words = sql.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
        let upserts = zip(words, words.dropFirst()).contains { $0 == "do" && $1 == "update" }
        var found: Set<CachedTable> = []
        for (index, word) in words.enumerated() {
            let rest = words[(index + 1)...]
            let target: String?
            switch word {
            case "update": target = rest.first
            case "delete" where rest.first == "from": target = rest.dropFirst().first
            case "replace" where rest.first == "into": target = rest.dropFirst().first
            case "insert":
                // `INSERT [OR REPLACE] INTO t`: a change only when it replaces or updates on conflict.
                guard let into = rest.prefix(3).firstIndex(of: "into"), upserts || rest.prefix(3).contains("replace") else {
                    target = nil
                    break
                }
                target = rest.dropFirst(into - index).first
            default: target = nil
            }
            if let target, let table = CachedTable(rawValue: target) { found.insert(table) }
        }
        return found.contains(.users) ? .users : found.first
    }
}
