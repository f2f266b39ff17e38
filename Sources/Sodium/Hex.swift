import CSodium

/// Lower-case hexadecimal text, in constant time (libsodium's `sodium_bin2hex`/`sodium_hex2bin`),
/// so encoding secrets leaks nothing through timing.
public enum Hex {
    /// The lower-case hex form of `bytes`, two characters per byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        Sodium.initialize()
        var text = [CChar](repeating: 0, count: bytes.count * 2 + 1)  // room for the NUL
        _ = sodium_bin2hex(&text, text.count, bytes, bytes.count)
        return String(decoding: text.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes `text` spells in hex (either case), or `nil` if it has an odd length or any
    /// character that is not a hex digit.
    public static func decode(_ text: String) -> [UInt8]? {
        Sodium.initialize()
        let hex = Array(text.utf8)
        guard hex.count.isMultiple(of: 2) else { return nil }
        var out = [UInt8](repeating: 0, count: hex.count / 2)
        var written = 0
        // With no end pointer, libsodium fails unless it consumed all of `hex`.
        let code = hex.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                sodium_hex2bin(&out, out.count, chars.baseAddress, chars.count, nil, &written, nil)
            }
        }
        guard Sodium.succeeded(code), written == out.count else { return nil }
        return out
    }
}
