/// A strict CBOR decoder for what WebAuthn sends: attestation objects, attestation statements and
/// COSE keys (RFC 8949, CTAP2's canonical form).
///
/// Strict means: definite lengths only, every argument in its shortest form, no tags, floats or
/// simple values but `false`, `true` and `null`, text in valid UTF-8, map keys integers or text and
/// each once. Bounded: nesting at most ``maximumDepth`` levels, at most ``maximumItems`` items, and
/// no length is believed before the bytes it claims are there, so a hostile input never makes it
/// allocate more than its own size.
///
/// ```swift
/// let object = try CBORDecoder.decode(attestationObject)   // the whole input, one item
/// let format = object["fmt"]?.text
/// ```
public struct CBORDecoder {
    /// Arrays and maps may nest this deep (a COSE key inside authenticator data needs 1).
    public static let maximumDepth = 16
    /// Items one input may hold (an attestation object with a certificate chain holds a few dozen).
    public static let maximumItems = 4096

    private let input: [UInt8]
    private var position: Int
    private var items = 0

    private init(_ input: [UInt8], at start: Int) {
        self.input = input
        self.position = start
    }

    /// The one item `input` holds, which must be all of it.
    public static func decode(_ input: [UInt8]) throws(CBORError) -> CBOR {
        let (item, end) = try decodePrefix(input, from: 0)
        guard end == input.count else { throw .trailingBytes(at: end) }
        return item
    }

    /// The item that starts at `start` in `input` and where it ends (authenticator data holds a
    /// COSE key followed by more bytes).
    public static func decodePrefix(_ input: [UInt8], from start: Int = 0) throws(CBORError) -> (CBOR, end: Int) {
        guard start >= 0, start <= input.count else { throw .truncated(at: start) }
        var decoder = CBORDecoder(input, at: start)
        let item = try decoder.item(depth: 0)
        return (item, decoder.position)
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBOR {
        let start = position
        items += 1
        guard items <= Self.maximumItems else { throw .tooManyItems(at: start) }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1f
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw .unsupportedItem(at: start)
            }
        }
        if major == 6 { throw .unsupportedItem(at: start) }
        let argument = try self.argument(info, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(argument, at: start))
        case 3:
            let bytes = try take(argument, at: start)
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidText(at: start) }
            return .text(text)
        case 4:
            guard depth < Self.maximumDepth else { throw .tooDeep(at: start) }
            // Every item takes at least a byte: a count over what is left is a lie, refused unallocated.
            guard argument <= UInt64(input.count - position) else { throw .truncated(at: start) }
            var array: [CBOR] = []
            array.reserveCapacity(Int(argument))
            for _ in 0..<argument { array.append(try item(depth: depth + 1)) }
            return .array(array)
        default:  // 5
            guard depth < Self.maximumDepth else { throw .tooDeep(at: start) }
            guard argument <= UInt64(input.count - position) / 2 else { throw .truncated(at: start) }
            var map: [CBOR: CBOR] = [:]
            map.reserveCapacity(Int(argument))
            for _ in 0..<argument {
                let keyStart = position
                // Looked at before it is read, so a nested key costs nothing.
                guard keyStart < input.count, [0, 1, 3].contains(input[keyStart] >> 5) else {
                    throw keyStart < input.count ? .unsupportedKey(at: keyStart) : .truncated(at: keyStart)
                }
                let key = try item(depth: depth + 1)
                let value = try item(depth: depth + 1)
                guard map.updateValue(value, forKey: key) == nil else { throw .duplicateKey(at: keyStart) }
            }
            return .map(map)
        }
    }

    /// The argument of a head whose additional information is `info`, in its shortest form only.
    private mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24...27:
            let width = 1 << Int(info - 24)
            var value: UInt64 = 0
            for _ in 0..<width { value = value << 8 | UInt64(try byte()) }
            // The shortest form: one byte only from 24, two only above 255, and so on.
            let smallest: UInt64 = width == 1 ? 24 : 1 << (UInt64(width) * 4)
            guard value >= smallest else { throw .notShortest(at: start) }
            return value
        default: throw .unsupportedLength(at: start)
        }
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard position < input.count else { throw .truncated(at: position) }
        defer { position += 1 }
        return input[position]
    }

    private mutating func take(_ count: UInt64, at start: Int) throws(CBORError) -> [UInt8] {
        guard count <= UInt64(input.count - position) else { throw .truncated(at: start) }
        let end = position + Int(count)
        defer { position = end }
        return Array(input[position..<end])
    }
}
