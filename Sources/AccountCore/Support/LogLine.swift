import AccountAPI
import Foundation

/// One log line in the making: a JSON object that begins with its `time` and `event`, written byte
/// by byte into memory of its own (no array, no dictionary, no formatter) and ended by a line feed.
///
/// Every value is a JSON string, as in every line the server has written, escaped as
/// ``JSONObjectWriter`` escapes strings. A line is built once per request, so it is kept cheap:
/// plain text (ids, paths, addresses) is copied in one go, and only text that needs an escape takes
/// the writer's slower path.
///
/// ```swift
/// var line = LogLine(event: "server_error")
/// line.field("request_id", context.requestID)
/// line.field("status", digitsOf: 500)
/// Log.write(line, .event)   // {"time":"…","event":"server_error","request_id":"…","status":"500"}
/// ```
package struct LogLine: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var count = 0

    /// A line with `time` (RFC 3339, whole seconds, UTC) and `event`.
    package init(event: String, time: Date = Date()) {
        capacity = 512
        base = .allocate(byteCount: capacity, alignment: 1)
        put(#"{"time":""#)
        reserve(RFC3339.maxLength)
        count += RFC3339.write(time, into: UnsafeMutableRawBufferPointer(start: base + count, count: RFC3339.maxLength))
        put(#"","event":"#)
        putString(event)
    }

    deinit { base.deallocate() }

    /// Adds a field.
    package mutating func field(_ key: StaticString, _ value: String) {
        member(key)
        putString(value)
    }

    /// Adds fields in their order.
    package mutating func fields(_ fields: KeyValuePairs<StaticString, String>) {
        for (key, value) in fields { field(key, value) }
    }

    /// Adds a whole number, as a string of digits (`"500"`).
    package mutating func field(_ key: StaticString, digitsOf value: Int) {
        member(key)
        put(0x22)
        putDigits(of: value)
        put(0x22)
    }

    /// Adds a duration in milliseconds with two decimals (`"0.42"`, as `%.2f` writes it).
    package mutating func field(_ key: StaticString, milliseconds duration: Duration) {
        let (seconds, attoseconds) = duration.components
        // Hundredths of a millisecond: 10^13 attoseconds each, rounded half up.
        let hundredths = Int(seconds) * 100_000 + Int((attoseconds + 5_000_000_000_000) / 10_000_000_000_000)
        member(key)
        put(0x22)
        putDigits(of: hundredths / 100)
        let rest = hundredths % 100
        put(0x2E)
        put(UInt8(0x30 + rest / 10))
        put(UInt8(0x30 + rest % 10))
        put(0x22)
    }

    /// Calls `body` with the finished line, its line feed included.
    consuming func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        put("}\n")
        return body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The finished line as an array, its line feed included.
    consuming func bytes() -> [UInt8] {
        withBytes { Array($0) }
    }

    // MARK: - Writing bytes

    private mutating func member(_ key: StaticString) {
        put(#",""#)
        put(key)
        put(#"":"#)
    }

    /// A JSON string literal: plain text copied in one go, other text escaped by the writer.
    private mutating func putString(_ value: String) {
        var text = value
        text.withUTF8 { utf8 in
            if utf8.contains(where: JSONObjectWriter.needsEscape) {
                var escaped: [UInt8] = []
                JSONObjectWriter.appendString(value, to: &escaped)
                escaped.withUnsafeBytes { put($0) }
            } else {
                put(0x22)
                put(UnsafeRawBufferPointer(utf8))
                put(0x22)
            }
        }
    }

    private mutating func putDigits(of value: Int) {
        if value < 0 { put(0x2D) }
        var rest = value.magnitude
        var digits = 1
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        reserve(digits)
        rest = value.magnitude
        for offset in stride(from: count + digits - 1, through: count, by: -1) {
            base.storeBytes(of: UInt8(truncatingIfNeeded: 0x30 + rest % 10), toByteOffset: offset, as: UInt8.self)
            rest /= 10
        }
        count += digits
    }

    private mutating func put(_ text: StaticString) {
        put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func put(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    private mutating func put(_ byte: UInt8) {
        reserve(1)
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Makes room for `length` more bytes.
    private mutating func reserve(_ length: Int) {
        guard count + length > capacity else { return }
        let grown = max(capacity * 2, count + length)
        let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 1)
        moved.copyMemory(from: base, byteCount: count)
        base.deallocate()
        (base, capacity) = (moved, grown)
    }
}
