import Testing
import Sodium

@Suite("Digest")
struct DigestTests {
    @Test("SHA-256 of \"abc\" and of nothing match FIPS 180-2")
    func sha256() {
        #expect(Hex.encode(Digest.sha256(Array("abc".utf8)))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(Digest.sha256([]))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("BLAKE2b-256 of \"abc\" and of nothing match RFC 7693's algorithm (Python's hashlib)")
    func blake2b256() {
        #expect(Hex.encode(Digest.blake2b256(Array("abc".utf8)))
            == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
        #expect(Hex.encode(Digest.blake2b256([]))
            == "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8")
        #expect(Digest.blake2b256(Array(repeating: 7, count: 500)) != Digest.blake2b256(Array(repeating: 7, count: 501)))
        // The in-place form writes the same digest, and nothing past its 32 bytes.
        for input in [[], Array("abc".utf8), Array(repeating: UInt8(7), count: 500)] {
            var out = [UInt8](repeating: 0xEE, count: 40)
            input.withUnsafeBytes { bytes in out.withUnsafeMutableBytes { Digest.blake2b256(bytes, into: $0) } }
            #expect(Array(out[..<32]) == Digest.blake2b256(input))
            #expect(out[32...].allSatisfy { $0 == 0xEE })
        }
    }

    @Test("HMAC-SHA-256 matches RFC 4231 test case 2 (a 4-byte key)")
    func hmacShortKey() {
        let mac = Digest.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Hex.encode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("HMAC-SHA-256 matches RFC 4231 test case 6 (a 131-byte key, hashed first)")
    func hmacLongKey() {
        let mac = Digest.hmacSHA256(
            key: [UInt8](repeating: 0xaa, count: 131),
            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(Hex.encode(mac) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("HMAC-SHA-256 depends on the key")
    func hmacKeyMatters() {
        let message = Array("payload".utf8)
        #expect(Digest.hmacSHA256(key: [1], message: message) != Digest.hmacSHA256(key: [2], message: message))
        #expect(Digest.hmacSHA256(key: [], message: message).count == 32)
    }
}
