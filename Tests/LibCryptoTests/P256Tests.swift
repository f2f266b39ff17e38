import LibCrypto
import Testing

/// ES256 checks against a vector made elsewhere (Python `cryptography` 48, offline) and keys made
/// here, with the malformed keys and signatures a WebAuthn response could carry.
@Suite struct P256Tests {
    static let message = Array("WebAuthn authenticator data || SHA-256(clientDataJSON)".utf8)
    static let x = bytes("e1450281f2923ae62de0c9c20fbc9c9387509e314ec1b3a8a81dd15faeef464d")
    static let y = bytes("c9e2ec6fe4549a83ad9c4a5c70cf89432c34c5073611d06d6e0667349dfd2a92")
    static let signature = bytes(
        "30450220726a0effeb64b8b2d26b34c381d156a6b27923216f2eace6fbc9d0e6c588399a02210085d43c22d21a5a24fc4bdbe6d81824860798ca1c982634815f698e3cd086c26f")
    /// The field prime p of P-256.
    static let p = bytes("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")

    @Test func aSignatureMadeByAnotherLibraryVerifies() {
        #expect(P256.verify(signature: Self.signature, message: Self.message, x: Self.x, y: Self.y))
    }

    @Test func aChangedMessageSignatureOrKeyFails() {
        var message = Self.message
        message[0] ^= 1
        #expect(!P256.verify(signature: Self.signature, message: message, x: Self.x, y: Self.y))
        #expect(!P256.verify(signature: Self.signature, message: Self.message + [0], x: Self.x, y: Self.y))
        for index in [5, 20, 40, Self.signature.count - 1] {
            var signature = Self.signature
            signature[index] ^= 0x01
            #expect(!P256.verify(signature: signature, message: Self.message, x: Self.x, y: Self.y), "byte \(index)")
        }
        let stranger = P256SigningKey.generate()
        #expect(!P256.verify(signature: Self.signature, message: Self.message, x: stranger.x, y: stranger.y))
    }

    @Test func aGeneratedKeySignsWhatItsPublicKeyVerifies() {
        let key = P256SigningKey.generate()
        let signature = key.sign(Self.message)
        #expect(signature.first == 0x30)
        #expect(P256.verify(signature: signature, message: Self.message, x: key.x, y: key.y))
        #expect(!P256.verify(signature: signature, message: [], x: key.x, y: key.y))
        // ECDSA with a random k: two signatures differ, both verify.
        let again = key.sign(Self.message)
        #expect(again != signature)
        #expect(P256.verify(signature: again, message: Self.message, x: key.x, y: key.y))
    }

    @Test func pointsOffTheCurveOrOfTheWrongSizeAreRefused() {
        var offCurve = Self.y
        offCurve[31] ^= 1
        #expect(P256.publicKey(x: Self.x, y: Self.y) != nil)
        #expect(P256.publicKey(x: Self.x, y: offCurve) == nil)
        #expect(P256.publicKey(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32)) == nil)
        #expect(P256.publicKey(x: Self.p, y: Self.y) == nil)
        #expect(P256.publicKey(x: Self.x, y: Self.p) == nil)
        #expect(P256.publicKey(x: [UInt8](repeating: 0xff, count: 32), y: [UInt8](repeating: 0xff, count: 32)) == nil)
        #expect(P256.publicKey(x: Array(Self.x.dropFirst()), y: Self.y) == nil)
        #expect(P256.publicKey(x: [0] + Self.x, y: Self.y) == nil)
        #expect(P256.publicKey(x: [], y: []) == nil)
        #expect(!P256.verify(signature: Self.signature, message: Self.message, x: Self.x, y: offCurve))
    }

    @Test func malformedSignaturesAreRefused() {
        let key = P256.publicKey(x: Self.x, y: Self.y)!
        #expect(!key.verify(signature: [], message: Self.message))
        #expect(!key.verify(signature: [0x30, 0x00], message: Self.message))
        #expect(!key.verify(signature: [UInt8](repeating: 0x30, count: 72), message: Self.message))
        #expect(!key.verify(signature: Self.signature + [0], message: Self.message))
        #expect(!key.verify(signature: Self.signature + [UInt8](repeating: 0, count: 100_000), message: Self.message))
        #expect(!key.verify(signature: Array(Self.signature.dropLast()), message: Self.message))
        // JOSE's raw r || s is not DER.
        #expect(!key.verify(signature: [UInt8](repeating: 1, count: 64), message: Self.message))
        // r with a needless leading zero: the same numbers, not canonical DER.
        let r = Array(Self.signature[4..<36]), s = Array(Self.signature[38...])
        let padded = [0x30, UInt8(2 + 33 + 2 + s.count), 0x02, 33, 0] + r + [0x02, UInt8(s.count)] + s
        #expect(!key.verify(signature: padded, message: Self.message))
        // r = 0 and s = 0.
        #expect(!key.verify(signature: [0x30, 6, 0x02, 1, 0, 0x02, 1, 0], message: Self.message))
    }

    @Test func aHugeMessageIsHashedNotRefused() {
        let key = P256SigningKey.generate()
        let message = [UInt8](repeating: 0xab, count: 1 << 20)
        #expect(P256.verify(signature: key.sign(message), message: message, x: key.x, y: key.y))
    }
}
