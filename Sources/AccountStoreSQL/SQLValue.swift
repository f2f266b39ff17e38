import AccountAPI
import Foundation

/// A value bound to a statement parameter, in the types the schema uses on every backend.
///
/// Times are integer milliseconds since 1970 (`INTEGER` on SQLite, `BIGINT` on PostgreSQL) and
/// UUIDs lower-case text, so a value means the same on both; each backend binds `blob` and `bool`
/// in its own type (`BLOB` / `bytea`, `0`/`1` / `BOOLEAN`).
public enum SQLValue: Sendable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case bool(Bool)
    case null

    public static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
    public static func uuid(_ value: UUID) -> SQLValue { .text(value.lowercasedText) }
    public static func uuid(_ value: UUID?) -> SQLValue { value.map { .uuid($0) } ?? .null }
    public static func date(_ value: Date) -> SQLValue { .integer(Milliseconds.from(value)) }
    public static func date(_ value: Date?) -> SQLValue { value.map { .date($0) } ?? .null }
    public static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    public static func blob(_ value: [UInt8]?) -> SQLValue { value.map { .blob($0) } ?? .null }
}

/// The conversion between `Date` and the stored integer milliseconds since 1970.
///
/// A date round-trips exactly when it is a whole number of milliseconds made the way
/// `Milliseconds.date(_:)` makes it; finer parts are rounded to the nearest millisecond.
public enum Milliseconds {
    public static func from(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    public static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
