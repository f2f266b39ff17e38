@testable import HTTPServer
import Testing

/// The byte classes of HTTP's grammar, written as bit masks and word-at-a-time checks, against
/// the grammar's own lists, one byte at a time.
@Suite struct ByteClassTests {
    /// RFC 9110 §5.6.2 `tchar`.
    static let tokenBytes = Set(Array("!#$%&'*+-.^_`|~0123456789".utf8) + letters)
    /// RFC 3986 unreserved, sub-delims, `%`, `:` and the brackets of an IP literal.
    static let hostBytes = Set(Array("-._~!$&'()*+,;=%:[]0123456789".utf8) + letters)
    static let letters = Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))

    @Test func tokenAndHostMasksHoldExactlyTheGrammarsBytes() {
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPBytes.isTokenByte(byte) == Self.tokenBytes.contains(byte), "token byte \(byte)")
            #expect(HTTPBytes.isHostByte(byte) == Self.hostBytes.contains(byte), "host byte \(byte)")
        }
    }

    @Test func fieldValuesAreCheckedLikeOneByteAtATimeInEveryPlaceOfAWord() {
        // Every byte value at every offset of a value longer than two words, and value lengths
        // around the word size.
        for length in [1, 7, 8, 9, 15, 16, 17, 23] {
            for place in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var value = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    value[place] = byte
                    let expected = HTTPBytes.isFieldValueByte(byte)
                    value.withUnsafeBufferPointer { bytes in
                        #expect(HTTPBytes.areFieldValueBytes(bytes, 0, length) == expected, "byte \(byte) at \(place) of \(length)")
                    }
                }
            }
        }
        // A range inside a larger buffer reads nothing outside it.
        let buffer = Array("\u{1}abcdefghijklmnop\u{1}".utf8)
        buffer.withUnsafeBufferPointer { bytes in
            #expect(HTTPBytes.areFieldValueBytes(bytes, 1, buffer.count - 1))
            #expect(!HTTPBytes.areFieldValueBytes(bytes, 0, buffer.count - 1))
            #expect(!HTTPBytes.areFieldValueBytes(bytes, 1, buffer.count))
        }
    }
}
