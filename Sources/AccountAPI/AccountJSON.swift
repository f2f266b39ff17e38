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
public enum RFC3339 {
    /// Formats `date` in UTC with whole seconds.
    public static func string(from date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Parses an RFC 3339 time, with or without fractional seconds.
    public static func date(from text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
