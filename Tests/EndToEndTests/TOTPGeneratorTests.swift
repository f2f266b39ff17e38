import Foundation
import TestSupport
import Testing

/// The tests' own authenticator (``TOTPGenerator``) against the RFCs' vectors, so a login that
/// passes with its codes proves the server computes them right.
@Suite struct TOTPGeneratorTests {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha1MatchesFIPS180() {
        #expect(hex(TOTPGenerator.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(TOTPGenerator.sha1([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex(TOTPGenerator.sha1(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    /// RFC 2202 §3, cases 1, 2 and 6 (a key longer than a block).
    @Test func hmacMatchesRFC2202() {
        #expect(hex(TOTPGenerator.hmacSHA1(key: .init(repeating: 0x0b, count: 20), message: Array("Hi There".utf8)))
            == "b617318655057264e28bc0b6fb378c8ef146be00")
        #expect(hex(TOTPGenerator.hmacSHA1(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)))
            == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        #expect(hex(TOTPGenerator.hmacSHA1(
            key: .init(repeating: 0xaa, count: 80), message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "aa4ae5e15272d00e95705637ce8a3b55ed402112")
    }

    /// RFC 6238 appendix B, the SHA-1 rows, 8 digits.
    @Test func totpMatchesRFC6238() {
        let secret = Array("12345678901234567890".utf8)
        let vectors: [(TimeInterval, String)] = [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ]
        for (time, code) in vectors {
            #expect(TOTPGenerator.code(secret: secret, at: Date(timeIntervalSince1970: time), digits: 8) == code)
            #expect(TOTPGenerator.code(secret: secret, at: Date(timeIntervalSince1970: time)) == String(code.suffix(6)))
        }
    }

    @Test func base32MatchesRFC4648() {
        #expect(TOTPGenerator.base32Decode("MZXW6YTBOI") == Array("foobar".utf8))
        #expect(TOTPGenerator.base32Decode("mzxw6yq=") == Array("foob".utf8))
        #expect(TOTPGenerator.base32Decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == Array("12345678901234567890".utf8))
        #expect(TOTPGenerator.base32Decode("MZ1") == nil)
    }
}
