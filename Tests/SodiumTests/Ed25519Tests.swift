import Testing
import Sodium

/// RFC 8032 section 7.1, test 1 (empty message).
private enum RFC8032Test1 {
    static let seed = Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!
    static let publicKey = Hex.decode("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")!
    static let signature = Hex.decode(
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")!
}

@Suite("Ed25519")
struct Ed25519Tests {
    @Test("RFC 8032 test 1: the seed gives the published key and signature")
    func rfc8032Vector() throws {
        let key = try Ed25519SigningKey(seed: RFC8032Test1.seed)
        #expect(key.seed == RFC8032Test1.seed)
        #expect(key.publicKey == RFC8032Test1.publicKey)
        #expect(key.sign([]) == RFC8032Test1.signature)
        #expect(Ed25519.verify(signature: RFC8032Test1.signature, message: [], publicKey: RFC8032Test1.publicKey))
    }

    @Test("a changed message, signature or key fails verification")
    func tampering() throws {
        let key = try Ed25519SigningKey(seed: RFC8032Test1.seed)
        let message = Array("header.payload".utf8)
        let signature = key.sign(message)
        #expect(Ed25519.verify(signature: signature, message: message, publicKey: key.publicKey))

        var otherMessage = message
        otherMessage[0] ^= 1
        #expect(!Ed25519.verify(signature: signature, message: otherMessage, publicKey: key.publicKey))
        #expect(!Ed25519.verify(signature: signature, message: message + [0], publicKey: key.publicKey))
        #expect(!Ed25519.verify(signature: RFC8032Test1.signature, message: message, publicKey: key.publicKey))
        for index in [0, 31, 32, 63] {
            var badSignature = signature
            badSignature[index] ^= 0x80
            #expect(!Ed25519.verify(signature: badSignature, message: message, publicKey: key.publicKey))
        }
        let stranger = Ed25519SigningKey.generate()
        #expect(!Ed25519.verify(signature: signature, message: message, publicKey: stranger.publicKey))
    }

    @Test("wrong sizes are rejected rather than read out of bounds")
    func wrongSizes() throws {
        let key = try Ed25519SigningKey(seed: RFC8032Test1.seed)
        let signature = key.sign([1, 2, 3])
        #expect(!Ed25519.verify(signature: Array(signature.dropLast()), message: [1, 2, 3], publicKey: key.publicKey))
        #expect(!Ed25519.verify(signature: signature + [0], message: [1, 2, 3], publicKey: key.publicKey))
        #expect(!Ed25519.verify(signature: [], message: [1, 2, 3], publicKey: key.publicKey))
        #expect(!Ed25519.verify(signature: signature, message: [1, 2, 3], publicKey: Array(key.publicKey.dropLast())))
        #expect(!Ed25519.verify(signature: signature, message: [1, 2, 3], publicKey: []))
    }

    @Test("a seed that is not 32 bytes is an invalid key", arguments: [0, 1, 31, 33, 64])
    func badSeed(count: Int) {
        #expect(throws: SodiumError.invalidKey) {
            try Ed25519SigningKey(seed: [UInt8](repeating: 7, count: count))
        }
    }

    @Test("generated keys are distinct, sized right, rebuild from their seed and sign verifiably")
    func generated() throws {
        let a = Ed25519SigningKey.generate()
        let b = Ed25519SigningKey.generate()
        #expect(a.seed.count == 32 && a.publicKey.count == 32)
        #expect(a.seed != b.seed && a.publicKey != b.publicKey)
        #expect(try Ed25519SigningKey(seed: a.seed).publicKey == a.publicKey)
        let signature = a.sign(Array("hi".utf8))
        #expect(signature.count == 64)
        #expect(Ed25519.verify(signature: signature, message: Array("hi".utf8), publicKey: a.publicKey))
    }
}
