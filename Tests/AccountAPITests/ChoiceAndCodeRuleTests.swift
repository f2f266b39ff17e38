import AccountAPI
import Testing

@Suite("MBTI and code rules")
struct ChoiceAndCodeRuleTests {
    @Test("Every type in any case passes", arguments: MBTI.allCases)
    func every_type(_ type: MBTI) {
        #expect(MBTIRule.validate(type.rawValue) == [])
        #expect(MBTIRule.validate(type.rawValue.lowercased()) == [])
        #expect(MBTIRule.validate(" \(type.rawValue) ") == [])
    }

    @Test func mbti_cases() {
        #expect(MBTIRule.validate("enfp") == [])
        #expect(MBTIRule.validate("EnFp") == [])
        #expect(MBTIRule.validate("ABCD") == [.invalidChoice])
        #expect(MBTIRule.validate("ENF") == [.invalidChoice])
        #expect(MBTIRule.validate("") == [.required])
        #expect(MBTIRule.validate("  ") == [.required])
    }

    @Test func code_is_exactly_6_ascii_digits() {
        #expect(CodeRule.length == 6)
        #expect(CodeRule.validate("012345") == [])
        #expect(CodeRule.validate(" 012345\n") == [])
        #expect(CodeRule.validate("12345") == [.invalidFormat])
        #expect(CodeRule.validate("1234567") == [.invalidFormat])
        #expect(CodeRule.validate("12a456") == [.invalidFormat])
        #expect(CodeRule.validate("123 456") == [.invalidFormat])
        #expect(CodeRule.validate("١٢٣٤٥٦") == [.invalidFormat])
        #expect(CodeRule.validate("１２３４５６") == [.invalidFormat])
        #expect(CodeRule.validate("") == [.required])
    }
}

@Suite("Base64URL")
struct Base64URLTests {
    @Test("RFC 4648 vectors without padding, and back")
    func vectors() {
        let cases = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in cases {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test("strict: no padding, no non-zero bits after the last byte, one encoding per byte string")
    func strictness() {
        for padded in ["Zg==", "Zg=", "Zm8=", "Zm9v=", "Zm9v==", "=", "==", "Zm=9v", "=Zm9v"] {
            #expect(Base64URL.decode(padded) == nil, "\(padded)")
        }
        // "Zg" is "f"; "Zh" to "Zv" differ only in the four bits after the byte.
        for last in "hijklmnopqrstuv" {
            #expect(Base64URL.decode("Z\(last)") == nil, "Z\(last)")
        }
        // Two characters and three: two and four unused bits.
        #expect(Base64URL.decode("Zm8") == Array("fo".utf8))
        #expect(Base64URL.decode("Zm9") == nil)
        for bad in ["Zm 9v", "Zm9v\n", " Zm9v", "Zm9v.", "Zm+v", "Zm/v", "Zm9v\u{0}"] {
            #expect(Base64URL.decode(bad) == nil, "\(bad.debugDescription)")
        }
    }

    @Test("the URL-safe alphabet, and garbage refused")
    func alphabetAndGarbage() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
        #expect(Base64URL.encode(bytes) == "-_-_")
        #expect(Base64URL.decode("-_-_") == bytes)
        for bad in ["+/+/", "Zm9v!", "Z", "Zh", "Zm9vY", "제목"] {
            #expect(Base64URL.decode(bad) == nil, "\(bad)")
        }
        for length in 0..<40 {
            let random = (0..<length).map { _ in UInt8.random(in: 0...255) }
            #expect(Base64URL.decode(Base64URL.encode(random)) == random)
        }
    }
}
