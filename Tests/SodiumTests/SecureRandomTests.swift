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

    @Test("uniform(below:) stays below its bound and reaches both ends")
    func uniformBounds() {
        let draws = (0..<2_000).map { _ in SecureRandom.uniform(below: 7) }
        #expect(draws.allSatisfy { $0 < 7 })
        #expect(Set(draws) == Set(0..<7))
        #expect(SecureRandom.uniform(below: 1) == 0)
        #expect(SecureRandom.uniform(below: 0) == 0)
    }

    @Test("digits(6) is six ASCII digits, and every digit shows up in every position")
    func sixDigitCodes() {
        var seen = Array(repeating: Set<Character>(), count: 6)
        for _ in 0..<2_000 {
            let code = SecureRandom.digits(6)
            #expect(code.count == 6)
            #expect(code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            for (position, digit) in code.enumerated() { seen[position].insert(digit) }
        }
        // Each digit has a 0.9^2000 chance of missing a position: never in practice.
        #expect(seen.allSatisfy { $0 == Set("0123456789") })
    }

    @Test("digits(n) has n characters", arguments: [0, 1, 8, 40])
    func digitCounts(n: Int) {
        #expect(SecureRandom.digits(n).count == n)
    }
}
