import AccountCore
/// Writes one JSON object byte by byte, for the replies sent most often.
///
/// `JSONEncoder` took a sixth of the server's time on `/auth/me` and a fifth of a refresh's task
/// in the profiles. This writes the very same bytes as ``JSONCoding/encoder`` (slashes not
/// escaped, the same escapes) provided members are added in sorted key order, as that encoder's
/// `.sortedKeys` orders them; tests compare the two for every type written this way.
package struct JSONObjectWriter {
    package private(set) var bytes: [UInt8] = [0x7B]
    private var first = true

    package init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    package mutating func string(_ key: StaticString, _ value: String) {
        member(key)
        Self.appendString(value, to: &bytes)
    }

    package mutating func int(_ key: StaticString, _ value: Int) {
        member(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func bool(_ key: StaticString, _ value: Bool) {
        member(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A string member whose text `write` appends as it is, without making a `String`: only for
    /// text that needs no escape (digits, a time).
    package mutating func string(_ key: StaticString, unescaped write: (inout [UInt8]) -> Void) {
        member(key)
        bytes.append(0x22)
        write(&bytes)
        bytes.append(0x22)
    }

    /// A member whose value is an array of strings.
    package mutating func strings(_ key: StaticString, _ values: [String]) {
        member(key)
        bytes.append(0x5B)
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            Self.appendString(value, to: &bytes)
        }
        bytes.append(0x5D)
    }

    /// A member whose value is JSON already written (a nested object).
    package mutating func json(_ key: StaticString, _ value: [UInt8]) {
        member(key)
        bytes.append(contentsOf: value)
    }

    /// The finished object.
    consuming func finish() -> [UInt8] {
        bytes.append(0x7D)
        return bytes
    }

    private mutating func member(_ key: StaticString) {
        if !first { bytes.append(0x2C) }
        first = false
        bytes.append(0x22)
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [0x22, 0x3A])
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// A JSON string literal, escaped as Foundation's encoder escapes it.
    package static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(0x22)
        // Most text (ids, paths, addresses, names) needs no escape: copied in one go.
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: needsEscape) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied != true { appendEscaped(text, to: &out) }
        out.append(0x22)
    }

    /// Whether a byte of text is written escaped: a quote, a backslash or a control character.
    package static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C
    }

    private static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x08: out.append(contentsOf: [0x5C, 0x62])
            case 0x0C: out.append(contentsOf: [0x5C, 0x66])
            case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: out.append(contentsOf: [0x5C, 0x72])
            case 0x09: out.append(contentsOf: [0x5C, 0x74])
            case 0x00..<0x20: out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: out.append(byte)
            }
        }
    }
}
