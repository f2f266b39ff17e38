import CBOR
import Testing

/// The decoder against RFC 8949's examples (Appendix A) of the kinds it supports, and every rule
/// that makes it strict.
@Suite struct CBORDecoderTests {
    struct Example: Sendable, CustomTestStringConvertible {
        let hex: String
        let value: CBOR
        var testDescription: String { hex }
    }

    static let rfc8949: [Example] = [
        Example(hex: "00", value: .unsigned(0)),
        Example(hex: "17", value: .unsigned(23)),
        Example(hex: "1818", value: .unsigned(24)),
        Example(hex: "1903e8", value: .unsigned(1000)),
        Example(hex: "1a000f4240", value: .unsigned(1_000_000)),
        Example(hex: "1b000000e8d4a51000", value: .unsigned(1_000_000_000_000)),
        Example(hex: "1bffffffffffffffff", value: .unsigned(.max)),
        Example(hex: "3bffffffffffffffff", value: .negative(.max)),
        Example(hex: "20", value: .int(-1)),
        Example(hex: "3863", value: .int(-100)),
        Example(hex: "3903e7", value: .int(-1000)),
        Example(hex: "f4", value: .bool(false)),
        Example(hex: "f5", value: .bool(true)),
        Example(hex: "f6", value: .null),
        Example(hex: "40", value: .bytes([])),
        Example(hex: "4401020304", value: .bytes([1, 2, 3, 4])),
        Example(hex: "60", value: .text("")),
        Example(hex: "6161", value: .text("a")),
        Example(hex: "6449455446", value: .text("IETF")),
        Example(hex: "62c3bc", value: .text("ü")),
        Example(hex: "63e6b0b4", value: .text("水")),
        Example(hex: "64f0908591", value: .text("𐅑")),
        Example(hex: "80", value: .array([])),
        Example(hex: "83010203", value: .array([.int(1), .int(2), .int(3)])),
        Example(hex: "8301820203820405", value: .array([.int(1), .array([.int(2), .int(3)]), .array([.int(4), .int(5)])])),
        Example(hex: "a0", value: .map([:])),
        Example(hex: "a201020304", value: .map([.int(1): .int(2), .int(3): .int(4)])),
        Example(hex: "a26161016162820203", value: .map([.text("a"): .int(1), .text("b"): .array([.int(2), .int(3)])])),
    ]

    @Test(arguments: rfc8949)
    func decodesRFC8949Examples(_ example: Example) throws {
        #expect(try CBORDecoder.decode(hex(example.hex)) == example.value)
        #expect(CBOREncoder.encode(example.value) == hex(example.hex))
    }

    @Test func aCOSEKeyReadsByItsLabels() throws {
        // {1: 2, 3: -7, -1: 1, -2: h'01..', -3: h'02..'}: an EC2 P-256 ES256 key.
        let key: CBOR = .map([
            .int(1): .int(2), .int(3): .int(-7), .int(-1): .int(1),
            .int(-2): .bytes([UInt8](repeating: 1, count: 32)), .int(-3): .bytes([UInt8](repeating: 2, count: 32)),
        ])
        let decoded = try CBORDecoder.decode(CBOREncoder.encode(key))
        #expect(decoded[3]?.int == -7)
        #expect(decoded[-2]?.bytes?.count == 32)
        #expect(decoded["fmt"] == nil)
    }

    @Test func aPrefixEndsWhereItsItemEnds() throws {
        let bytes = CBOREncoder.encode(.map([.int(1): .int(2)])) + [0xde, 0xad]
        let (item, end) = try CBORDecoder.decodePrefix(bytes)
        #expect(item == .map([.int(1): .int(2)]))
        #expect(end == 3)
        #expect(throws: CBORError.trailingBytes(at: 3)) { try CBORDecoder.decode(bytes) }
        #expect(throws: CBORError.truncated(at: 5)) { try CBORDecoder.decodePrefix(bytes, from: 5) }
    }

    @Test func notShortestArgumentsAreRefused() {
        for bad in ["1800", "1817", "190000", "1900ff", "1a0000ffff", "1b00000000ffffffff", "3817", "5801ff", "780161", "9800", "b800"] {
            #expect(throws: CBORError.notShortest(at: 0), "\(bad)") { try CBORDecoder.decode(hex(bad)) }
        }
    }

    @Test func indefiniteAndReservedLengthsAreRefused() {
        for bad in ["5f4101ff", "7f6161ff", "9fff", "bfff", "1c", "1d", "1e", "1f", "3f"] {
            #expect(throws: CBORError.unsupportedLength(at: 0), "\(bad)") { try CBORDecoder.decode(hex(bad)) }
        }
    }

    @Test func tagsFloatsAndOtherSimpleValuesAreRefused() {
        // A tagged date, half/single/double floats, undefined, simple(16), simple(255), a lone break.
        for bad in ["c074323031332d30332d32315432303a30343a30305a", "f93c00", "fa47c35000", "fb3ff199999999999a", "f7", "f0", "f8ff", "ff"] {
            #expect(throws: CBORError.unsupportedItem(at: 0), "\(bad)") { try CBORDecoder.decode(hex(bad)) }
        }
    }

    @Test func textMustBeUTF8() {
        for bad in ["61ff", "62c328", "63eda080", "64f8a1a1a1"] {
            #expect(throws: CBORError.invalidText(at: 0), "\(bad)") { try CBORDecoder.decode(hex(bad)) }
        }
    }

    @Test func mapKeysAreIntegersOrTextEachOnce() {
        #expect(throws: CBORError.duplicateKey(at: 3)) { try CBORDecoder.decode(hex("a201020103")) }
        #expect(throws: CBORError.duplicateKey(at: 4)) { try CBORDecoder.decode(hex("a2616101616102")) }
        #expect(throws: CBORError.unsupportedKey(at: 1)) { try CBORDecoder.decode(hex("a14101f6")) }
        #expect(throws: CBORError.unsupportedKey(at: 1)) { try CBORDecoder.decode(hex("a180f6")) }
        #expect(throws: CBORError.unsupportedKey(at: 1)) { try CBORDecoder.decode(hex("a1f6f6")) }
        // 1 and "1" are different keys.
        #expect((try? CBORDecoder.decode(hex("a20100613101")))?.map?.count == 2)
    }

    @Test func nestingIsBounded() throws {
        let deepest = [UInt8](repeating: 0x81, count: CBORDecoder.maximumDepth) + [0x00]
        #expect(throws: Never.self) { try CBORDecoder.decode(deepest) }
        let tooDeep = [UInt8](repeating: 0x81, count: CBORDecoder.maximumDepth + 1) + [0x00]
        #expect(throws: CBORError.tooDeep(at: CBORDecoder.maximumDepth)) { try CBORDecoder.decode(tooDeep) }
        // A million levels: refused at the limit, long before the stack is in danger.
        let hostile = [UInt8](repeating: 0xa1, count: 1_000_000)
        #expect(throws: CBORError.unsupportedKey(at: 1)) { try CBORDecoder.decode(hostile) }
        let hostileArrays = [UInt8](repeating: 0x81, count: 1_000_000)
        #expect(throws: CBORError.tooDeep(at: CBORDecoder.maximumDepth)) { try CBORDecoder.decode(hostileArrays) }
    }

    @Test func lengthsAreNotBelievedBeyondTheInput() {
        // Strings, arrays and maps claiming up to 2^64 − 1 of something in a few bytes.
        for bad in ["5bffffffffffffffff", "7bffffffffffffffff", "9bffffffffffffffff", "bbffffffffffffffff", "5a7fffffff00", "9a7fffffff00", "4201", "8201"] {
            #expect(throws: CBORError.self, "\(bad)") { try CBORDecoder.decode(hex(bad)) }
        }
        #expect(throws: CBORError.truncated(at: 0)) { try CBORDecoder.decode([]) }
        #expect(throws: CBORError.truncated(at: 2)) { try CBORDecoder.decode([0x19, 0x01]) }
    }

    @Test func itemsAreBounded() {
        let many = [0x99] + bigEndian(UInt16(CBORDecoder.maximumItems)) + [UInt8](repeating: 0, count: CBORDecoder.maximumItems)
        #expect(throws: CBORError.tooManyItems(at: many.count - 1)) { try CBORDecoder.decode(many) }
        let allowed = [0x99] + bigEndian(UInt16(CBORDecoder.maximumItems - 1)) + [UInt8](repeating: 0, count: CBORDecoder.maximumItems - 1)
        #expect((try? CBORDecoder.decode(allowed))?.array?.count == CBORDecoder.maximumItems - 1)
    }
}

/// Bytes from hex.
func hex(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        out.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return out
}

/// The big-endian bytes of `value`.
func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
}
