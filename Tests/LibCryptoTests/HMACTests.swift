import LibCrypto
import Testing

/// libcrypto's HMAC-SHA-1 against RFC 2202's test cases (section 3), as authenticator codes need it.
@Suite struct HMACTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let number: Int
        let key: [UInt8]
        let message: [UInt8]
        let digest: String
        var testDescription: String { "RFC 2202 test case \(number)" }
    }

    static let rfc2202: [Vector] = [
        Vector(number: 1, key: .init(repeating: 0x0b, count: 20), message: Array("Hi There".utf8), digest: "b617318655057264e28bc0b6fb378c8ef146be00"),
        Vector(number: 2, key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8), digest: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        Vector(number: 3, key: .init(repeating: 0xaa, count: 20), message: .init(repeating: 0xdd, count: 50), digest: "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        Vector(number: 4, key: Array(1...25), message: .init(repeating: 0xcd, count: 50), digest: "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        Vector(number: 5, key: .init(repeating: 0x0c, count: 20), message: Array("Test With Truncation".utf8), digest: "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
        Vector(
            number: 6, key: .init(repeating: 0xaa, count: 80), message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            digest: "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        Vector(
            number: 7, key: .init(repeating: 0xaa, count: 80),
            message: Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
            digest: "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
    ]

    @Test(arguments: rfc2202)
    func matchesRFC2202(_ vector: Vector) {
        #expect(hex(HMAC.sha1(key: vector.key, message: vector.message)) == vector.digest)
    }

    @Test func anEmptyKeyAndMessageWork() {
        #expect(hex(HMAC.sha1(key: [], message: [])) == "fbdb1d1b18aa6c08324b7d64b71fb76370690e1d")
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
