/// RFC 4648 base32 (`A`–`Z`, `2`–`7`), as authenticator apps read TOTP secrets.
///
/// ```swift
/// Base32.encode(Array("foobar".utf8))  // "MZXW6YTBOI" (no padding)
/// Base32.decode("mzxw 6ytb oi======")  // the six bytes again
/// ```
package enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// `bytes` in base32 without `=` padding (the form `otpauth://` URIs use).
    package static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 0x1F)])
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 0x1F)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of base32 `text`, in either letter case, with spaces and hyphens (as people
    /// type a secret in groups) and trailing `=` ignored; `nil` for any other character or a
    /// length no encoder makes.
    package static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        var symbols = 0
        var padding = false
        for character in text.utf8 {
            if character == 0x20 || character == 0x2D { continue }
            if character == 0x3D {
                padding = true
                continue
            }
            guard !padding, let value = value(of: character) else { return nil }
            symbols += 1
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        // 1, 3 and 6 symbols in the last group of 8 hold no whole byte: no encoder writes them.
        guard ![1, 3, 6].contains(symbols % 8) else { return nil }
        // The leftover bits must be zero, so each text has one meaning.
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): character - UInt8(ascii: "2") + 26
        default: nil
        }
    }
}
