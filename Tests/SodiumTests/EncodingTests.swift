import Testing
import Sodium

@Suite("Hex and constant-time comparison")
struct EncodingTests {
    @Test("constantTimeEquals is byte equality, false for different lengths")
    func constantTime() {
        #expect(constantTimeEquals([], []))
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([0, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(!constantTimeEquals([], [0]))
        let secret = SecureRandom.bytes(count: 32)
        #expect(constantTimeEquals(secret, Array(secret)))
    }

    @Test("Hex encodes lower-case, two characters per byte")
    func encode() {
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x00, 0x0f, 0xab, 0xff]) == "000fabff")
    }

    @Test("Hex round-trips random bytes")
    func roundTrip() {
        for count in [0, 1, 31, 256] {
            let bytes = SecureRandom.bytes(count: count)
            #expect(Hex.decode(Hex.encode(bytes)) == bytes)
        }
        #expect(Hex.decode("DEADbeef") == [0xde, 0xad, 0xbe, 0xef])
    }

    @Test("Hex.decode rejects anything that is not an even run of hex digits",
          arguments: ["0", "abc", "0g", "zz", "ab cd", " abcd", "abcd\n", "0x00", "한국", "ab\0c"])
    func badHex(_ text: String) {
        #expect(Hex.decode(text) == nil)
    }
}
