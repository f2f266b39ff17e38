import Foundation

/// The JSON coding every side of the API uses: RFC 3339 UTC dates, stable key order.
///
/// Coders are classes that are costly to make; share these (they are safe to use from many threads
/// as long as nobody changes their options).
public enum AccountJSON {
    /// An encoder with sorted keys and RFC 3339 dates (whole seconds, `Z`).
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.string(from: date))
        }
        return encoder
    }

    /// A decoder that reads RFC 3339 dates with or without fractional seconds.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not an RFC 3339 time")
            }
            return date
        }
        return decoder
    }
}

/// RFC 3339 times in UTC, as the API writes them (`2026-11-30T04:46:45Z`).
package enum RFC3339 {
    /// Formats `date` in UTC with whole seconds (`2026-11-30T07:08:55Z`).
    ///
    /// Computed directly for the years 1600–9999 (Foundation's formatter showed up in the profile
    /// of every `/auth/me`); the same text as `date.formatted(.iso8601)`, which handles the rest
    /// (it switches to the Julian calendar before 1582).
    package static func string(from date: Date) -> String {
        guard let seconds = directSeconds(of: date) else { return date.formatted(.iso8601) }
        return String(unsafeUninitializedCapacity: 20) { write(seconds, into: $0) }
    }

    /// Appends the text of ``string(from:)`` to `bytes` as UTF-8, without making a `String` (for
    /// lines written byte by byte, such as the log's).
    package static func append(_ date: Date, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(byteCount: maxLength, alignment: 1) { buffer in
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<write(date, into: buffer)]))
        }
    }

    /// The most bytes ``write(_:into:)`` writes.
    package static let maxLength = 32

    /// Writes the UTF-8 text of ``string(from:)`` at the start of `buffer` (at least
    /// ``maxLength`` bytes) and returns its length, without making a `String`.
    package static func write(_ date: Date, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        precondition(buffer.count >= maxLength, "RFC3339.write needs \(maxLength) bytes")
        guard let seconds = directSeconds(of: date) else {
            let text = Array(date.formatted(.iso8601).utf8.prefix(maxLength))
            buffer.copyBytes(from: text)
            return text.count
        }
        return write(seconds, into: buffer.bindMemory(to: UInt8.self))
    }

    /// Whole seconds since 1970 when `date` lies in the years 1600–9999, else `nil`.
    private static func directSeconds(of date: Date) -> Int64? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= -11_676_096_000, seconds < 253_402_300_800 else { return nil }
        return Int64(seconds)
    }

    /// Writes `YYYY-MM-DDThh:mm:ssZ` (20 bytes) for `total` seconds since 1970; returns 20.
    private static func write(_ total: Int64, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondOfDay = total - days * 86_400
        let (year, month, day) = civil(daysSince1970: days)
        func digits(_ value: Int64, width: Int, at offset: Int) {
            var rest = value
            for position in stride(from: offset + width - 1, through: offset, by: -1) {
                buffer[position] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                rest /= 10
            }
        }
        digits(year, width: 4, at: 0)
        digits(month, width: 2, at: 5)
        digits(day, width: 2, at: 8)
        digits(secondOfDay / 3600, width: 2, at: 11)
        digits(secondOfDay / 60 % 60, width: 2, at: 14)
        digits(secondOfDay % 60, width: 2, at: 17)
        (buffer[4], buffer[7], buffer[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
        (buffer[13], buffer[16], buffer[19]) = (UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "Z"))
        return 20
    }

    /// Year, month and day of the proleptic Gregorian calendar for a day count since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    private static func civil(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Parses an RFC 3339 time, with or without fractional seconds.
    package static func date(from text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
