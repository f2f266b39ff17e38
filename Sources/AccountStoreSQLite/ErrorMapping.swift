import CSQLite
import AccountStore

extension StoreError {
    /// Translates an SQLite result code and message into the store's terms.
    ///
    /// SQLite messages name tables and columns, never bound values, so they are safe to keep;
    /// SQL text and parameters are never added here.
    init(sqliteCode code: Int32, message: String) {
        let primary = code & 0xff
        if code == csqlite_constraint_unique() || code == csqlite_constraint_primarykey() {
            self = .conflict(field: Self.conflictField(message))
            return
        }
        let reason: Reason = "SQLite \(code): \(message)"
        switch primary {
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN:
            self = .unavailable(reason: reason)
        default:
            self = .failure(reason: reason)
        }
    }

    /// The field a unique violation is about, from "UNIQUE constraint failed: users.email_key".
    ///
    /// `*_key` columns hold the normalized form of the field callers know, so the suffix is dropped;
    /// the `username_*skeleton` columns are the nickname too.
    static func conflictField(_ message: String) -> String {
        guard let qualified = message.split(separator: " ").last,
              let column = qualified.split(separator: ".").last
        else { return "unknown" }
        if column.hasPrefix("username_") && column.hasSuffix("skeleton") { return "username" }
        return column.hasSuffix("_key") ? String(column.dropLast(4)) : String(column)
    }
}
