import AccountAPI
import Foundation
import Testing

@Suite("Username rule")
struct UsernameRuleTests {
    @Test("Hangul, Latin, digits and the allowed symbols pass", arguments: [
        "김민수", "민_수.1", "mina", "Mina_99", "ab", "ㅋㅋ", "Ünïcödé", String(repeating: "가", count: 20),
    ])
    func valid(_ name: String) {
        #expect(UsernameRule.validate(name) == [])
    }

    @Test func empty_and_blank_are_required_and_nothing_else() {
        #expect(UsernameRule.validate("") == [.required])
        #expect(UsernameRule.validate("  \n\t ") == [.required])
    }

    @Test func length_is_2_to_20_scalars() {
        #expect(UsernameRule.validate("a") == [.tooShort])
        #expect(UsernameRule.validate("김") == [.tooShort])
        #expect(UsernameRule.validate(String(repeating: "a", count: 20)) == [])
        #expect(UsernameRule.validate(String(repeating: "a", count: 21)) == [.tooLong])
        #expect(UsernameRule.validate(String(repeating: "민", count: 21)) == [.tooLong])
    }

    @Test func all_digits_is_invalid_format() {
        #expect(UsernameRule.validate("12345") == [.invalidFormat])
        // Other scripts' decimal digits are digits too.
        #expect(UsernameRule.validate("١٢٣") == [.invalidFormat])
        #expect(UsernameRule.validate("1234a") == [])
    }

    @Test("Control, space, emoji, combining and other symbols are refused", arguments: [
        "mi\tna", "mi na", "mina\u{0007}", "mina😀", "mina!", "mi-na",
        "mina@x", "a\u{0301}\u{0301}b", "mi\u{00A0}na",
    ])
    func refused_characters(_ name: String) {
        #expect(UsernameRule.validate(name) == [.invalidFormat])
    }

    @Test func too_short_and_invalid_format_are_both_reported() {
        #expect(UsernameRule.validate("!") == [.tooShort, .invalidFormat])
    }

    @Test func surrounding_whitespace_is_trimmed() {
        #expect(UsernameRule.normalize("  김민수\n") == "김민수")
        #expect(UsernameRule.validate("  김민수\n") == [])
    }

    @Test func nfd_hangul_is_composed_and_counted_after_nfc() throws {
        let decomposed = "김민수".decomposedStringWithCanonicalMapping
        try #require(decomposed.unicodeScalars.count > 3)
        let normalized = UsernameRule.normalize(decomposed)
        #expect(normalized.unicodeScalars.count == 3)
        #expect(Array(normalized.unicodeScalars) == Array("김민수".unicodeScalars))
        #expect(UsernameRule.validate(decomposed) == [])
        // 20 syllables are 40+ scalars in NFD but a fine name in NFC.
        let long = String(repeating: "각", count: 20).decomposedStringWithCanonicalMapping
        #expect(long.unicodeScalars.count == 60)
        #expect(UsernameRule.validate(long) == [])
    }

    @Test func key_folds_case_and_width() {
        #expect(UsernameRule.key("Ｍｉｎａ") == UsernameRule.key("mina"))
        #expect(UsernameRule.key("MINA") == "mina")
        #expect(UsernameRule.key("ＡＤＭＩＮ") == "admin")
        #expect(UsernameRule.key("Straße") == UsernameRule.key("STRASSE"))
        #expect(UsernameRule.key("김민수") == "김민수")
    }

    @Test("Reserved names are taken in any case or width", arguments: [
        "admin", "Admin", "ADMIN", "ＡＤＭＩＮ", "Root", "support", "me", "MBTI", "관리자",
    ])
    func reserved_is_taken(_ name: String) {
        #expect(UsernameRule.validate(name) == [.taken])
    }

    @Test func reserved_entries_are_keys_and_themselves_valid_names() {
        #expect(UsernameRule.reserved.count >= 30)
        for name in UsernameRule.reserved {
            #expect(UsernameRule.key(name) == name)
            #expect(UsernameRule.validate(name) == [.taken])
        }
    }
}
