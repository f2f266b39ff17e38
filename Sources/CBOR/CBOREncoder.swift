/// Encodes ``CBOR`` in CTAP2's canonical form: shortest arguments, definite lengths, map keys
/// ordered by their encoded bytes (shorter first, then bytewise), so equal values give equal bytes.
///
/// The server only decodes; this is for authenticators written in Swift (the tests' software
/// authenticator) and for fuzzing the decoder with valid inputs to mutate.
public enum CBOREncoder {
    /// The canonical bytes of `value`.
    public static func encode(_ value: CBOR) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    private static func append(_ value: CBOR, to out: inout [UInt8]) {
        switch value {
        case .unsigned(let n): head(0, n, to: &out)
        case .negative(let n): head(1, n, to: &out)
        case .bytes(let bytes):
            head(2, UInt64(bytes.count), to: &out)
            out += bytes
        case .text(let text):
            head(3, UInt64(text.utf8.count), to: &out)
            out += text.utf8
        case .array(let items):
            head(4, UInt64(items.count), to: &out)
            for item in items { append(item, to: &out) }
        case .map(let entries):
            head(5, UInt64(entries.count), to: &out)
            let sorted = entries.map { (encode($0.key), $0.value) }.sorted { a, b in
                a.0.count != b.0.count ? a.0.count < b.0.count : a.0.lexicographicallyPrecedes(b.0)
            }
            for (key, item) in sorted {
                out += key
                append(item, to: &out)
            }
        case .bool(let flag): out.append(flag ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        }
    }

    /// A head of major type `major` with argument `n` in its shortest form.
    private static func head(_ major: UInt8, _ n: UInt64, to out: inout [UInt8]) {
        let type = major << 5
        switch n {
        case 0..<24: out.append(type | UInt8(n))
        case 24...0xff: out += [type | 24, UInt8(n)]
        case 0x100...0xffff: out += [type | 25, UInt8(n >> 8), UInt8(n & 0xff)]
        case 0x1_0000...0xffff_ffff: out.append(type | 26); out += (0..<4).reversed().map { UInt8((n >> ($0 * 8)) & 0xff) }
        default: out.append(type | 27); out += (0..<8).reversed().map { UInt8((n >> ($0 * 8)) & 0xff) }
        }
    }
}
