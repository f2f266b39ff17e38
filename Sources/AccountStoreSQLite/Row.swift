import CSQLite
import AccountStoreSQL

/// The current result row of a stepping statement; valid only inside the row callback.
struct Row: SQLRow {
    let statement: OpaquePointer

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func bool(_ column: Int32) -> Bool { int64(column) != 0 }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func text(_ column: Int32) -> String {
        // Ask for the pointer before the length: sqlite3_column_bytes reports the converted size.
        guard let pointer = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        // A zero-length blob comes back as a NULL pointer.
        guard let pointer = sqlite3_column_blob(statement, column) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
