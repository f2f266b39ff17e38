import AccountAPI
import AccountStore
import Foundation

/// One result row as a backend reads it; valid only inside the row callback of
/// ``SQLConnection/query(_:_:forEachRow:)``. Columns count from 0.
///
/// A backend reads the five stored kinds; times, UUIDs and optionals are read the same way on
/// every backend, by the extension below.
public protocol SQLRow {
    func isNull(_ column: Int32) -> Bool
    func int64(_ column: Int32) -> Int64
    /// Text, or `""` for NULL.
    func text(_ column: Int32) -> String
    func bool(_ column: Int32) -> Bool
    /// Bytes; throws when the database sent something it cannot decode. Read a column that may be
    /// NULL with ``optionalBlob(_:)``.
    func blob(_ column: Int32) throws -> [UInt8]
}

extension SQLRow {
    public func int(_ column: Int32) -> Int { Int(int64(column)) }
    public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    public func optionalBlob(_ column: Int32) throws -> [UInt8]? { isNull(column) ? nil : try blob(column) }
    public func date(_ column: Int32) -> Date { Milliseconds.date(int64(column)) }
    public func optionalDate(_ column: Int32) -> Date? { isNull(column) ? nil : date(column) }

    public func uuid(_ column: Int32) throws -> UUID {
        guard let uuid = UUID(text: text(column)) else {
            throw StoreError.failure(reason: "column \(column) does not hold a UUID")
        }
        return uuid
    }
}
