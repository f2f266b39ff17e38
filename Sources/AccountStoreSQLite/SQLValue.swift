import AccountAPI
import Foundation

/// A value bound to a statement parameter, in the storage classes the schema uses.
///
/// Times are INTEGER milliseconds since 1970 and UUIDs lower-case text, so the same values work
/// unchanged on PostgreSQL (`BIGINT`, `TEXT`).
enum SQLValue {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null

    static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
    static func uuid(_ value: UUID) -> SQLValue { .text(value.lowercasedText) }
    static func date(_ value: Date) -> SQLValue { .integer(Milliseconds.from(value)) }
    static func date(_ value: Date?) -> SQLValue { value.map { .date($0) } ?? .null }
    static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
}

/// The conversion between `Date` and the stored INTEGER milliseconds since 1970.
///
/// A date round-trips exactly when it is a whole number of milliseconds made the way
/// `Milliseconds.date(_:)` makes it; finer parts are rounded to the nearest millisecond.
enum Milliseconds {
    static func from(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
