import AccountAPI
import Foundation
import Testing

/// The byte-level text forms must say exactly what Foundation says.
@Suite("UUID and RFC 3339 text forms")
struct TextFormTests {
    @Test("lowercasedText is uuidString in lower case; init(text:) reads both cases")
    func uuidRoundTrips() {
        for _ in 0..<2000 {
            let id = UUID()
            #expect(id.lowercasedText == id.uuidString.lowercased())
            #expect(UUID(text: id.lowercasedText) == id)
            #expect(UUID(text: id.uuidString) == id)
            #expect(UUID(text: Substring(id.uuidString)) == id)
        }
        let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        #expect(zero.lowercasedText == "00000000-0000-0000-0000-000000000000")
        #expect(UUID(text: "FFFFFFFF-ffff-FfFf-ffff-FFFFFFFFFFFF") == UUID(uuidString: "ffffffff-ffff-ffff-ffff-ffffffffffff"))
    }

    @Test("init(text:) refuses what init(uuidString:) refuses", arguments: [
        "", "d7d0b2ff-c868-4887-a060-1d6f63e7283", "d7d0b2ff-c868-4887-a060-1d6f63e7283e0",
        "d7d0b2ffc868-4887-a060-1d6f63e7283e0", "d7d0b2ff-c868-4887-a060_1d6f63e7283e",
        "g7d0b2ff-c868-4887-a060-1d6f63e7283e", "{d7d0b2ff-c868-4887-a060-1d6f63e728}",
        "d7d0b2ff-c868-4887-a060-1d6f63e7283é",
    ])
    func uuidRefusals(text: String) {
        #expect(UUID(uuidString: text) == nil)
        #expect(UUID(text: text) == nil)
    }

    @Test("init(text:) is stricter than sscanf: no blanks skipped inside the hex")
    func uuidStrictAboutBlanks() {
        #expect(UUID(text: " d7d0b2ff-c868-4887-a060-1d6f63e7283") == nil)
        #expect(UUID(text: "d7d0b2ff-c868-4887-a060- 1d6f63e7283") == nil)
    }

    @Test("RFC3339.string matches Foundation's .iso8601 for whole and fractional seconds")
    func rfc3339MatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        var samples: [TimeInterval] = [0, -1, -0.5, 0.999, 86_399.9, 951_782_400, 4_107_542_400, -2_208_988_800, 253_402_300_799]
        for _ in 0..<3000 { samples.append(Double.random(in: -62_000_000_000...253_000_000_000, using: &generator)) }
        for _ in 0..<1000 { samples.append(Double(Int.random(in: 1_700_000_000...1_900_000_000, using: &generator))) }
        for seconds in samples {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(RFC3339.string(from: date) == date.formatted(.iso8601), "\(seconds)")
            var bytes: [UInt8] = [0x2A]
            RFC3339.append(date, to: &bytes)
            #expect(bytes == [0x2A] + Array(date.formatted(.iso8601).utf8), "append, \(seconds)")
        }
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 1_790_000_000)) == "2026-09-21T14:13:20Z")
    }
}
