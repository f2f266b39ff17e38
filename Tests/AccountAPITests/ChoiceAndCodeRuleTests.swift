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
