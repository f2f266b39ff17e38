import Testing
import Sodium

@Suite("SecretBox")
struct SecretBoxTests {
    @Test("a sealed value opens with its key, is 40 bytes longer, and never repeats")
    func roundTrip() throws {
        let key = SecretBoxKey.generate()
        for count in [0, 1, 32, 1000] {
            let plaintext = SecureRandom.bytes(count: count)
            let box = SecretBox.seal(plaintext, key: key)
            #expect(box.count == count + 40)
            #expect(SecretBox.open(box, key: key) == plaintext)
            // A fresh random nonce each time: sealing the same value twice gives other bytes.
            #expect(SecretBox.seal(plaintext, key: key) != box)
        }
    }

    @Test("any changed byte, a truncated box or another key fails to open")
    func tampering() throws {
        let key = SecretBoxKey.generate()
        let box = SecretBox.seal(Array("a signing seed of 32 bytes......".utf8), key: key)
        for index in box.indices {
            var altered = box
            altered[index] ^= 0x01
            #expect(SecretBox.open(altered, key: key) == nil, "byte \(index)")
        }
        #expect(SecretBox.open(Array(box.dropLast()), key: key) == nil)
        #expect(SecretBox.open(Array(box.prefix(39)), key: key) == nil)
        #expect(SecretBox.open([], key: key) == nil)
        #expect(SecretBox.open(box, key: SecretBoxKey.generate()) == nil)
    }

    @Test("keys are exactly 32 bytes")
    func keyLength() {
        #expect(throws: SodiumError.invalidKey) { try SecretBoxKey(bytes: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: SodiumError.invalidKey) { try SecretBoxKey(bytes: [UInt8](repeating: 1, count: 33)) }
        #expect((try? SecretBoxKey(bytes: [UInt8](repeating: 1, count: 32))) != nil)
    }

    @Test("derived keys are stable per context, differ between contexts, and do not open each other's boxes")
    func derivation() throws {
        let key = try SecretBoxKey(bytes: [UInt8](repeating: 7, count: 32))
        let a = key.derived(context: "setting:code_hmac_key")
        #expect(a == key.derived(context: "setting:code_hmac_key"))
        #expect(a != key.derived(context: "setting:refresh_derivation_key"))
        #expect(a != key)
        // BLAKE2b-256 keyed with 32 × 0x07 over the context (Python: hashlib.blake2b(…, key=…, digest_size=32)).
        #expect(Hex.encode(key.derived(context: "abc").bytes)
            == "62d8fe04aeb9b650b0dbdb3078da63b0d4c864854da1e7ff3aae7a2daee046ba")
        let box = SecretBox.seal([1, 2, 3], key: a)
        #expect(SecretBox.open(box, key: key.derived(context: "setting:refresh_derivation_key")) == nil)
        #expect(SecretBox.open(box, key: a) == [1, 2, 3])
    }
}
