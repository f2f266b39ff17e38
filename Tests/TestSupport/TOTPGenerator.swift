import Foundation

/// The tests' own RFC 6238 implementation: authenticator codes computed the way an authenticator
/// app does, independent of the server's (pure Swift SHA-1 here, OpenSSL's libcrypto there), so
/// a test that logs in with one checks the other. Checked against the RFCs' vectors by its tests.
///
/// ```swift
/// let secret = try #require(TOTPGenerator.base32Decode(enrolment.secret))
/// let code = TOTPGenerator.code(secret: secret, at: Date())   // "287082"
/// ```
public enum TOTPGenerator {
    /// The code of the 30-second step `date` falls in, `digits` long.
    public static func code(secret: [UInt8], at date: Date, digits: Int = 6) -> String {
        code(secret: secret, step: UInt64(date.timeIntervalSince1970 / 30), digits: digits)
    }

    /// The code of `step` (RFC 4226 HOTP with the step as counter).
    public static func code(secret: [UInt8], step: UInt64, digits: Int = 6) -> String {
        let counter = (0..<8).map { UInt8(truncatingIfNeeded: step >> UInt64(56 - 8 * $0)) }
        let mac = hmacSHA1(key: secret, message: counter)
        let offset = Int(mac[19] & 0x0F)
        let value = (UInt64(mac[offset] & 0x7F) << 24 | UInt64(mac[offset + 1]) << 16 | UInt64(mac[offset + 2]) << 8 | UInt64(mac[offset + 3]))
        var modulus: UInt64 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(value % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// RFC 4648 base32, any letter case, `=` padding and spaces ignored; `nil` for other characters.
    public static func base32Decode(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits: UInt64 = 0
        var count = 0
        var out: [UInt8] = []
        for character in text.uppercased() where character != "=" && character != " " {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            bits = (bits << 5) | UInt64(value)
            count += 5
            if count >= 8 {
                count -= 8
                out.append(UInt8((bits >> UInt64(count)) & 0xFF))
            }
        }
        return out
    }

    /// HMAC-SHA-1 (RFC 2104).
    public static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var key = key.count > 64 ? sha1(key) : key
        key += [UInt8](repeating: 0, count: 64 - key.count)
        let inner = sha1(key.map { $0 ^ 0x36 } + message)
        return sha1(key.map { $0 ^ 0x5C } + inner)
    }

    /// SHA-1 (FIPS 180-4), for HMAC-SHA-1 only.
    public static func sha1(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let length = UInt64(message.count) * 8
        padded += (0..<8).map { UInt8(truncatingIfNeeded: length >> UInt64(56 - 8 * $0)) }
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            var w = [UInt32](repeating: 0, count: 80)
            for i in 0..<16 {
                let j = chunk + 4 * i
                w[i] = UInt32(padded[j]) << 24 | UInt32(padded[j + 1]) << 16 | UInt32(padded[j + 2]) << 8 | UInt32(padded[j + 3])
            }
            for i in 16..<80 {
                let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                w[i] = (x << 1) | (x >> 31)
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32) = switch i {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, (b << 30) | (b >> 2), a, temp)
            }
            h[0] = h[0] &+ a
            h[1] = h[1] &+ b
            h[2] = h[2] &+ c
            h[3] = h[3] &+ d
            h[4] = h[4] &+ e
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
    }
}
