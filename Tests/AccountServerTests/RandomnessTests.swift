import Foundation
import Testing
@testable import AccountCore

/// The core's randomness: bounds and spread of what it draws, from the system's generator and a
/// seeded one alike.
@Suite("Randomness")
struct RandomnessTests {
    static let sources: [(String, Randomness)] = [("system", .system), ("seeded", .seeded(7))]

    @Test("uniform(below:) stays below its bound and reaches both ends", arguments: [0, 1])
    func uniformBounds(source: Int) {
        let random = Self.sources[source].1
        let draws = (0..<2_000).map { _ in random.uniform(below: 7) }
        #expect(draws.allSatisfy { $0 < 7 })
        #expect(Set(draws) == Set(0..<7))
        #expect(random.uniform(below: 1) == 0)
        #expect(random.uniform(below: 0) == 0)
    }

    @Test("digits(6) is six ASCII digits, and every digit shows up in every position", arguments: [0, 1])
    func sixDigitCodes(source: Int) {
        let random = Self.sources[source].1
        var seen = Array(repeating: Set<Character>(), count: 6)
        for _ in 0..<2_000 {
            let code = random.digits(6)
            #expect(code.count == 6)
            #expect(code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            for (position, digit) in code.enumerated() { seen[position].insert(digit) }
        }
        // Each digit has a 0.9^2000 chance of missing a position: never in practice.
        #expect(seen.allSatisfy { $0 == Set("0123456789") })
        #expect(random.digits(0).isEmpty && random.digits(-1).isEmpty && random.digits(40).count == 40)
    }

    @Test("bytes(_:) gives exactly as many as asked for, and two draws differ", arguments: [0, 1])
    func byteCounts(source: Int) {
        let random = Self.sources[source].1
        for count in [0, 1, 5, 8, 9, 32, 1000] { #expect(random.bytes(count).count == count) }
        #expect(random.bytes(-1).isEmpty)
        #expect(random.bytes(32) != random.bytes(32))
    }

    @Test("uuid() is version 4 with the RFC 9562 variant, and ids do not repeat", arguments: [0, 1])
    func versionFourIDs(source: Int) {
        let random = Self.sources[source].1
        let ids = (0..<1_000).map { _ in random.uuid() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(50) {
            let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4 && bytes[8] >> 6 == 0b10)
        }
    }

    @Test("one seed draws the same values again; another seed draws others")
    func seedsRepeat() {
        let (first, again, other) = (Randomness.seeded(11), Randomness.seeded(11), Randomness.seeded(12))
        #expect(first.bytes(13) == again.bytes(13))
        #expect(first.digits(6) == again.digits(6))
        #expect(first.uuid() == again.uuid())
        #expect(Randomness.seeded(11).bytes(16) != other.bytes(16))
    }
}
