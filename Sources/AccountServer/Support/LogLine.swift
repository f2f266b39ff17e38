import AccountAPI
import Foundation

/// One log line in the making: a JSON object that begins with its `time` and `event`, written byte
/// by byte with ``JSONObjectWriter`` (no dictionary, no formatter) and ended by a line feed.
///
/// Every value is a JSON string, as in every line the server has written.
///
/// ```swift
/// var line = LogLine(event: "server_error")
/// line.field("request_id", context.requestID)
/// line.field("status", digitsOf: 500)
/// Log.write(line, .event)   // {"time":"…","event":"server_error","request_id":"…","status":"500"}
/// ```
struct LogLine {
    private var object = JSONObjectWriter(capacity: 256)

    /// A line with `time` (RFC 3339, whole seconds, UTC) and `event`.
    init(event: String, time: Date = Date()) {
        object.string("time") { RFC3339.append(time, to: &$0) }
        object.string("event", event)
    }

    /// Adds a field.
    mutating func field(_ key: StaticString, _ value: String) {
        object.string(key, value)
    }

    /// Adds fields in their order.
    mutating func fields(_ fields: KeyValuePairs<StaticString, String>) {
        for (key, value) in fields { object.string(key, value) }
    }

    /// Adds a whole number, as a string of digits (`"500"`).
    mutating func field(_ key: StaticString, digitsOf value: Int) {
        object.string(key) { Self.appendDigits(of: value, to: &$0) }
    }

    /// Adds a duration in milliseconds with two decimals (`"0.42"`, as `%.2f` writes it).
    mutating func field(_ key: StaticString, milliseconds duration: Duration) {
        let (seconds, attoseconds) = duration.components
        // Hundredths of a millisecond: 10^13 attoseconds each, rounded half up.
        let hundredths = Int(seconds) * 100_000 + Int((attoseconds + 5_000_000_000_000) / 10_000_000_000_000)
        object.string(key) { bytes in
            Self.appendDigits(of: hundredths / 100, to: &bytes)
            let rest = hundredths % 100
            bytes.append(contentsOf: [0x2E, UInt8(0x30 + rest / 10), UInt8(0x30 + rest % 10)])
        }
    }

    /// The line's bytes, with its line feed.
    consuming func bytes() -> [UInt8] {
        var bytes = object.finish()
        bytes.append(0x0A)
        return bytes
    }

    private static func appendDigits(of value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(0x2D) }
        var rest = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(0x30 + rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }
}
