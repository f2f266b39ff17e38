import AccountStore
import Foundation
import Testing

/// The ids the server makes per request: version 4 layout whatever the bits, and random.
@Suite struct RandomUUIDTests {
    /// Version nibble and variant bits of an id, from its bytes.
    static func layout(_ id: UUID) -> (version: UInt8, variant: UInt8) {
        (id.uuid.6 >> 4, id.uuid.8 >> 6)
    }

    @Test(arguments: [(UInt64.min, UInt64.min), (.max, .max), (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210)])
    func versionAndVariantReplaceTheirBitsAndNothingElse(_ bits: (UInt64, UInt64)) {
        let id = UUID(version4Bits: bits)
        #expect(Self.layout(id) == (4, 0b10))
        var expected = (bits.0.bigEndian, bits.1.bigEndian)
        withUnsafeMutableBytes(of: &expected) { raw in
            raw[6] = raw[6] & 0x0F | 0x40
            raw[8] = raw[8] & 0x3F | 0x80
        }
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        #expect(bytes == withUnsafeBytes(of: expected) { Array($0) })
        // The text form parses back to the same id and shows the version where RFC 9562 puts it.
        let text = id.uuidString.lowercased()
        #expect(UUID(uuidString: text) == id)
        #expect(Array(text)[14] == "4")
        #expect("89ab".contains(Array(text)[19]))
    }

    @Test func randomIdsAreVersion4AndDoNotRepeat() {
        let ids = (0..<10_000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { Self.layout($0) == (4, 0b10) })
        // Every one of the 122 random bits takes both values over 10,000 ids (a bit stuck at one
        // value by chance: about 122 × 2⁻⁹⁹⁹⁹).
        let words = ids.map { id in withUnsafeBytes(of: id.uuid) { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) } }
        let (or0, and0) = words.reduce((UInt64.min, UInt64.max)) { ($0.0 | $1.0, $0.1 & $1.0) }
        let (or1, and1) = words.reduce((UInt64.min, UInt64.max)) { ($0.0 | $1.1, $0.1 & $1.1) }
        var fixedBytes = [UInt8](repeating: 0, count: 16)
        (fixedBytes[6], fixedBytes[8]) = (0xF0, 0xC0)  // the version nibble and the variant bits
        let (fixed0, fixed1) = fixedBytes.withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        #expect(or0 | fixed0 == .max && and0 & ~fixed0 == 0)
        #expect(or1 | fixed1 == .max && and1 & ~fixed1 == 0)
    }
}
