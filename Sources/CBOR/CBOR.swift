/// A CBOR data item (RFC 8949) of the kinds WebAuthn uses: integers, byte and text strings,
/// arrays, maps, `true`, `false` and `null`. No tags, floats or `undefined`: ``CBORDecoder``
/// refuses them.
public indirect enum CBOR: Sendable, Hashable {
    /// Major type 0: an unsigned integer.
    case unsigned(UInt64)
    /// Major type 1: the integer −1 − `n`.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3, valid UTF-8.
    case text(String)
    /// Major type 4.
    case array([CBOR])
    /// Major type 5; keys are integers or text, each once.
    case map([CBOR: CBOR])
    /// `false` and `true` (simple values 20, 21).
    case bool(Bool)
    /// `null` (simple value 22).
    case null

    /// An integer key or value (`-7` is `.negative(6)`).
    public static func int(_ value: Int) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }

    /// The integer this is, when it is one that fits an `Int`.
    public var int: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n <= UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    /// The bytes of a byte string.
    public var bytes: [UInt8]? {
        if case .bytes(let value) = self { value } else { nil }
    }

    /// The string of a text string.
    public var text: String? {
        if case .text(let value) = self { value } else { nil }
    }

    /// The items of an array.
    public var array: [CBOR]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// The entries of a map.
    public var map: [CBOR: CBOR]? {
        if case .map(let value) = self { value } else { nil }
    }

    /// The value under `key` in a map (`nil` when this is no map or has no such key).
    public subscript(key: CBOR) -> CBOR? { map?[key] }
    /// The value under the integer key `key` (COSE's labels).
    public subscript(key: Int) -> CBOR? { map?[.int(key)] }
    /// The value under the text key `key`.
    public subscript(key: String) -> CBOR? { map?[.text(key)] }
}
