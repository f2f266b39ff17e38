import CBOR
import Testing

/// The decoder fed random and mutated inputs: it must never crash, never take long, and whatever it
/// accepts must encode and decode to the same value. Seeded, so a failure can be replayed.
@Suite struct CBORFuzzTests {
    /// SplitMix64: small, fast and reproducible from its seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    /// Something shaped like an attestation object, with a COSE key in its authenticator data.
    static let attestationObject: [UInt8] = CBOREncoder.encode(.map([
        .text("fmt"): .text("packed"),
        .text("attStmt"): .map([
            .text("alg"): .int(-7), .text("sig"): .bytes([UInt8](repeating: 0x30, count: 70)),
            .text("x5c"): .array([.bytes([UInt8](repeating: 0x82, count: 300))]),
        ]),
        .text("authData"): .bytes([UInt8](repeating: 0x49, count: 37) + CBOREncoder.encode(.map([
            .int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1),
            .int(-2): .bytes([UInt8](repeating: 1, count: 32)), .int(-3): .bytes([UInt8](repeating: 2, count: 32)),
        ]))),
    ]))

    @Test func randomBytesNeverCrash() {
        var random = Generator(state: 0x5eed_0001)
        var accepted = 0
        for _ in 0..<100_000 {
            let count = Int.random(in: 0...64, using: &random)
            let input = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            if let value = try? CBORDecoder.decode(input) {
                accepted += 1
                check(value)
            }
        }
        // Random bytes are mostly refused, but short valid items do turn up.
        #expect(accepted > 0)
    }

    @Test func mutatedAttestationObjectsNeverCrash() {
        var random = Generator(state: 0x5eed_0002)
        let seed = Self.attestationObject
        #expect((try? CBORDecoder.decode(seed))?["fmt"]?.text == "packed")
        for _ in 0..<50_000 {
            var input = seed
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<5, using: &random) {
                case 0:  // flip a bit
                    let index = Int.random(in: 0..<input.count, using: &random)
                    input[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
                case 1:  // a random byte
                    input[Int.random(in: 0..<input.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                case 2:  // cut
                    input = Array(input.prefix(Int.random(in: 0...input.count, using: &random)))
                case 3:  // insert a head byte
                    input.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...input.count, using: &random))
                default:  // a length set to something huge
                    let index = Int.random(in: 0..<input.count, using: &random)
                    input.replaceSubrange(index..<index, with: [0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])
                }
                if input.isEmpty { break }
            }
            if let value = try? CBORDecoder.decode(input) { check(value) }
        }
    }

    @Test func randomValuesRoundTrip() throws {
        var random = Generator(state: 0x5eed_0003)
        for _ in 0..<5_000 {
            let value = Self.value(depth: 0, using: &random)
            let encoded = CBOREncoder.encode(value)
            #expect(try CBORDecoder.decode(encoded) == value)
        }
    }

    /// What was accepted encodes canonically and decodes again to itself.
    private func check(_ value: CBOR) {
        let again = try? CBORDecoder.decode(CBOREncoder.encode(value))
        #expect(again == value)
    }

    static func value(depth: Int, using random: inout Generator) -> CBOR {
        switch Int.random(in: 0..<(depth < 4 ? 8 : 6), using: &random) {
        case 0: return .unsigned(random.next() >> UInt64.random(in: 0...63, using: &random))
        case 1: return .negative(random.next() >> UInt64.random(in: 0...63, using: &random))
        case 2: return .bytes((0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 3: return .text(String((0..<Int.random(in: 0...20, using: &random)).map { _ in
            Character(Unicode.Scalar(UInt32.random(in: 0x20...0x7e, using: &random))!) }) + (Bool.random(using: &random) ? "é水𐅑" : ""))
        case 4: return .bool(Bool.random(using: &random))
        case 5: return .null
        case 6: return .array((0..<Int.random(in: 0...5, using: &random)).map { _ in value(depth: depth + 1, using: &random) })
        default:
            var map: [CBOR: CBOR] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                let key: CBOR = Bool.random(using: &random) ? .int(Int.random(in: -30...30, using: &random)) : .text("k\(Int.random(in: 0...9, using: &random))")
                map[key] = value(depth: depth + 1, using: &random)
            }
            return .map(map)
        }
    }
}
