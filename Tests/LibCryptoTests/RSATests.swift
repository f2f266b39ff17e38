import LibCrypto
import Testing

/// RS256 checks against a vector made elsewhere (Python `cryptography` 48, offline) and keys made
/// here, with the weak or malformed keys and signatures a WebAuthn response could carry.
@Suite struct RSATests {
    static let message = P256Tests.message
    static let modulus = bytes(
        "aff687fc28cd768a255f0907c887f4fda7900f31373bb1682d94ffaa6ed4515579d830eb9f4780289fcb0d800f80176c03707ceaa0f7cf4227f88244b3deaa4a7388c0844fafe8ac86dadeae0e66b2f2c4846125e9a9e837cad9f93f66685e095577093a9e4363342894dc4e2afc5f1f5857a6b339adc01b796240dfdc795ae2a21e640aef5cc716d8e2233cbd2128362a427ff3e3af0a95de3107b283914e6f9a4784a1898ec7f8110106bde759c2a6ff1fff37e34dfc17bf5ea5279e25643fab9d05a702cdc55674d04104c1b80cc9b19a9f9e3a20cdb0072158fdeeacdb8f2881fbcf693b6cb16d1f6eb40863055db5a4c86acd3de65f2f2ce362d650794b")
    static let exponent: [UInt8] = [0x01, 0x00, 0x01]
    static let signature = bytes(
        "68ca30681ae8c8c8c36ccdfa6899e2458a6a9bc72cdd4de0728ab75a5f1ce1c4ffdf4ee1e8e53222265d069ea243edf10a74ca396c88c117c499cf6e40b44a18dc1d5a62ce89df4bb14018ca3d97c5112d28ff509a105a12e169ef64402a9cf0e6276d3b8707550fbccb58f688eec4a2c8d074e1a63e37ab9a425a93f19c5fced38657e69e7a20ceff4784605cd9e191da25e632496c118d8a72ba33fa3eb9c55835ab8925a15055e65562b5af28138a12004ff0fce92babc6d71d1a1f8f3243fc83aec3a01ef514a2f4fd9f02e98ba0b33ad6da75e5d95fa848b169a336c182b1a60e90a53775d29956284fa45759ed0521f5f18fccc7422c3331ea900337b2")

    @Test func aSignatureMadeByAnotherLibraryVerifies() {
        #expect(RSA.verify(signature: Self.signature, message: Self.message, modulus: Self.modulus, exponent: Self.exponent))
    }

    @Test func aChangedMessageSignatureOrKeyFails() {
        #expect(!RSA.verify(signature: Self.signature, message: Self.message + [0], modulus: Self.modulus, exponent: Self.exponent))
        for index in [0, 100, 255] {
            var signature = Self.signature
            signature[index] ^= 0x01
            #expect(!RSA.verify(signature: signature, message: Self.message, modulus: Self.modulus, exponent: Self.exponent))
        }
        var modulus = Self.modulus
        modulus[200] ^= 0x02
        #expect(!RSA.verify(signature: Self.signature, message: Self.message, modulus: modulus, exponent: Self.exponent))
        #expect(!RSA.verify(signature: Self.signature, message: Self.message, modulus: Self.modulus, exponent: [0x03]))
    }

    @Test func aGeneratedKeySignsWhatItsPublicKeyVerifies() {
        let key = RSASigningKey.generate()
        #expect(key.modulus.count == 256 && key.exponent == Self.exponent)
        let signature = key.sign(Self.message)
        #expect(signature.count == 256)
        #expect(RSA.verify(signature: signature, message: Self.message, modulus: key.modulus, exponent: key.exponent))
        #expect(key.sign(Self.message) == signature, "PKCS #1 v1.5 signatures are deterministic")
        #expect(!RSA.verify(signature: Self.signature, message: Self.message, modulus: key.modulus, exponent: key.exponent))
    }

    @Test func weakOrMalformedKeysAreRefused() {
        #expect(RSA.publicKey(modulus: Self.modulus, exponent: Self.exponent) != nil)
        // 1024 bits: too small, whatever else is right.
        let small = RSASigningKey.generate(bits: 1024)
        #expect(RSA.publicKey(modulus: small.modulus, exponent: small.exponent) == nil)
        #expect(!RSA.verify(signature: small.sign(Self.message), message: Self.message, modulus: small.modulus, exponent: small.exponent))
        // Over 8192 bits.
        #expect(RSA.publicKey(modulus: [UInt8](repeating: 0xff, count: 1025), exponent: Self.exponent) == nil)
        #expect(RSA.publicKey(modulus: [0] + Self.modulus, exponent: Self.exponent) == nil)
        #expect(RSA.publicKey(modulus: [], exponent: Self.exponent) == nil)
        var even = Self.modulus
        even[even.count - 1] &= 0xfe
        #expect(RSA.publicKey(modulus: even, exponent: Self.exponent) == nil)
        #expect(RSA.publicKey(modulus: Self.modulus, exponent: [0x01]) == nil)
        #expect(RSA.publicKey(modulus: Self.modulus, exponent: [0x01, 0x00, 0x00]) == nil)
        #expect(RSA.publicKey(modulus: Self.modulus, exponent: [0x00, 0x01, 0x00, 0x01]) == nil)
        #expect(RSA.publicKey(modulus: Self.modulus, exponent: []) == nil)
        #expect(RSA.publicKey(modulus: Self.modulus, exponent: [UInt8](repeating: 0xff, count: 9)) == nil)
    }

    @Test func signaturesOfTheWrongLengthAreRefused() {
        let key = RSA.publicKey(modulus: Self.modulus, exponent: Self.exponent)!
        #expect(!key.verify(signature: [], message: Self.message))
        #expect(!key.verify(signature: [0] + Self.signature, message: Self.message))
        #expect(!key.verify(signature: Array(Self.signature.dropFirst()), message: Self.message))
        #expect(!key.verify(signature: [UInt8](repeating: 0xff, count: 256), message: Self.message))
        #expect(!key.verify(signature: [UInt8](repeating: 0, count: 1 << 20), message: Self.message))
    }
}
