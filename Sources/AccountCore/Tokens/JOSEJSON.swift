/// A byte-level check of the JSON in a JWS (its header and its claims) before a JSON decoder reads
/// it: exactly one well-formed object, and no member name twice in any object.
///
/// Foundation's decoders silently keep one of two members with the same name, so a token could
/// say one thing to us and another to a different parser (RFC 7515 §4 and RFC 7519 §4: reject, or keep the last; we reject). Names are
/// compared after their escapes are undone (`"\u0061lg"` is `"alg"`), and, where either holds a
/// non-ASCII byte, as Swift strings, which is how Foundation's dictionaries compare them.
///
/// One pass over the bytes, no recursion deeper than ``maximumDepth``, at most ``maximumMembers``
/// names per object (a token of ours has eight), so a hostile token costs microseconds at most.
package struct JOSEJSON {
    package static let maximumDepth = 8
    package static let maximumMembers = 32

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The member names of the object `bytes` holds (escapes undone), or `nil` unless `bytes` is
    /// one well-formed JSON object, with blanks at most around it, and no object in it repeats a
    /// name.
    package static func memberNames(_ bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
        var scanner = JOSEJSON(bytes)
        scanner.skipBlanks()
        guard scanner.peek == UInt8(ascii: "{"), let names = scanner.object(depth: 1) else { return nil }
        scanner.skipBlanks()
        return scanner.index == bytes.count ? names : nil
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipBlanks() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// One value of any kind; `false` when malformed.
    private mutating func value(depth: Int) -> Bool {
        switch peek {
        case UInt8(ascii: "{"): return object(depth: depth + 1) != nil
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string(keepingText: false) != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    /// An object starting at `{`; its names, or `nil` when malformed or a name repeats.
    private mutating func object(depth: Int) -> [ArraySlice<UInt8>]? {
        guard depth <= Self.maximumDepth, take(UInt8(ascii: "{")) else { return nil }
        var names: [ArraySlice<UInt8>] = []
        skipBlanks()
        if take(UInt8(ascii: "}")) { return names }
        names.reserveCapacity(8)
        while true {
            skipBlanks()
            guard let name = string(keepingText: true), names.count < Self.maximumMembers else { return nil }
            for earlier in names where Self.same(earlier, name) { return nil }
            names.append(name)
            skipBlanks()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipBlanks()
            guard value(depth: depth) else { return nil }
            skipBlanks()
            if take(UInt8(ascii: "}")) { return names }
            guard take(UInt8(ascii: ",")) else { return nil }
        }
    }

    private mutating func array(depth: Int) -> Bool {
        guard depth <= Self.maximumDepth, take(UInt8(ascii: "[")) else { return false }
        skipBlanks()
        if take(UInt8(ascii: "]")) { return true }
        while true {
            skipBlanks()
            guard value(depth: depth) else { return false }
            skipBlanks()
            if take(UInt8(ascii: "]")) { return true }
            guard take(UInt8(ascii: ",")) else { return false }
        }
    }

    /// A string starting at `"`: its bytes with escapes undone (UTF-8) when `keepingText`, else
    /// an empty slice; `nil` when malformed.
    private mutating func string(keepingText: Bool) -> ArraySlice<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        // Most strings have no escape: hand back the slice of the input, no copy.
        while let byte = peek, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { return nil }
            index += 1
        }
        if take(UInt8(ascii: "\"")) { return keepingText ? bytes[start..<index - 1] : [] }
        var out = keepingText ? Array(bytes[start..<index]) : []
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return out[...]
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { return nil }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    if keepingText { out.append(contentsOf: Array(String(Character(scalar)).utf8)) }
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                if keepingText { out.append(byte) }
            }
        }
        return nil
    }

    /// The scalar of `XXXX` after `\u` (a surrogate pair takes a second `\uXXXX`); `nil` for a
    /// lone surrogate or a bad digit.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hex4() else { return nil }
        switch high {
        case 0xD800...0xDBFF:
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        case 0xDC00...0xDFFF:
            return nil
        default:
            return Unicode.Scalar(high)
        }
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` (RFC 8259 §6).
    private mutating func number() -> Bool {
        _ = take(UInt8(ascii: "-"))
        if !take(UInt8(ascii: "0")) {
            guard let first = peek, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first) else { return false }
            skipDigits()
        }
        if take(UInt8(ascii: ".")) {
            guard skipDigits() > 0 else { return false }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard skipDigits() > 0 else { return false }
        }
        return true
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else { return false }
        index += expected.count
        return true
    }

    /// Whether two names are one to a JSON decoder: the same bytes, or, with non-ASCII in either,
    /// canonically equivalent strings.
    private static func same(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        if a.elementsEqual(b) { return true }
        guard a.contains(where: { $0 >= 0x80 }) || b.contains(where: { $0 >= 0x80 }) else { return false }
        return String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self)
    }
}
