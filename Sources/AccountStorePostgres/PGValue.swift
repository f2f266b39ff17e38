import AccountAPI
import Foundation

/// A value bound to a statement parameter, in the types the schema uses.
///
/// Times are BIGINT milliseconds since 1970, UUIDs lower-case text and flags BOOLEAN, the same
/// values the SQLite backend stores.
enum PGValue {
    case integer(Int64)
    case text(String)
    case bytea([UInt8])
    case boolean(Bool)
    case null

    static func int(_ value: Int) -> PGValue { .integer(Int64(value)) }
    static func uuid(_ value: UUID) -> PGValue { .text(value.lowercasedText) }
    static func date(_ value: Date) -> PGValue { .integer(Milliseconds.from(value)) }
    static func date(_ value: Date?) -> PGValue { value.map { .date($0) } ?? .null }
    static func text(_ value: String?) -> PGValue { value.map { .text($0) } ?? .null }
}

/// The conversion between `Date` and the stored BIGINT milliseconds since 1970.
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

/// A parameter in the form `PQexecPrepared` takes: bytes it may read until `free()`.
///
/// Text goes in text format (NUL-terminated); bytea in binary format, so no escaping is needed.
struct EncodedParameter {
    /// `nil` for SQL NULL.
    let pointer: UnsafeMutablePointer<CChar>?
    let length: Int32
    /// 0 for text, 1 for binary.
    let format: Int32

    init(_ value: PGValue) {
        switch value {
        case .integer(let number): self.init(text: String(number))
        case .text(let text): self.init(text: text)
        case .boolean(let flag): self.init(text: flag ? "true" : "false")
        case .bytea(let bytes):
            // A zero-length value still needs a pointer: NULL would mean SQL NULL.
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: raw.count) }
            }
            self.init(pointer: buffer, length: Int32(bytes.count), format: 1)
        case .null:
            self.init(pointer: nil, length: 0, format: 0)
        }
    }

    private init(text: String) {
        let utf8 = Array(text.utf8CString)
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        buffer.initialize(from: utf8, count: utf8.count)
        self.init(pointer: buffer, length: 0, format: 0)
    }

    private init(pointer: UnsafeMutablePointer<CChar>?, length: Int32, format: Int32) {
        self.pointer = pointer
        self.length = length
        self.format = format
    }

    func free() {
        pointer?.deallocate()
    }
}
