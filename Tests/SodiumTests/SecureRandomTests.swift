import Testing
import Sodium

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test("bytes(count:) returns exactly count bytes", arguments: [0, 1, 16, 32, 1000])
    func byteCounts(count: Int) {
        #expect(SecureRandom.bytes(count: count).count == count)
    }

    @Test("two 32-byte draws differ, and a negative count gives nothing")
    func bytesDiffer() {
        #expect(SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
        #expect(SecureRandom.bytes(count: -1).isEmpty)
    }
}
