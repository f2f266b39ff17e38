import AccountAPI
import Foundation
import Testing

@Suite("Password rule")
struct PasswordRuleTests {
    @Test func empty_is_required() {
        #expect(PasswordRule.validate("", username: nil, email: nil) == [.required])
    }

    @Test func length_is_8_to_128_scalars() {
        #expect(PasswordRule.validate("abcdefg", username: nil, email: nil) == [.tooShort])
        #expect(PasswordRule.validate("abcdefgh12", username: nil, email: nil) == [])
        #expect(PasswordRule.validate(String(repeating: "a", count: 128), username: nil, email: nil) == [])
        #expect(PasswordRule.validate(String(repeating: "a", count: 129), username: nil, email: nil) == [.tooLong])
    }

    @Test func length_errors_skip_the_other_checks() {
        // It contains the nickname, but only the length is reported.
        #expect(PasswordRule.validate("mina1", username: "mina", email: "mina@example.com") == [.tooShort])
    }

    @Test func is_not_trimmed() {
        #expect(PasswordRule.validate("  abc  ", username: nil, email: nil) == [.tooShort])
        #expect(PasswordRule.validate(" abcdef ", username: nil, email: nil) == [])
    }

    @Test func nfd_hangul_counts_after_nfc() throws {
        let eight = "가나다라마바사아".decomposedStringWithCanonicalMapping
        try #require(eight.unicodeScalars.count == 16)
        #expect(PasswordRule.validate(eight, username: nil, email: nil) == [])
        let seven = "가나다라마바사".decomposedStringWithCanonicalMapping
        #expect(PasswordRule.validate(seven, username: nil, email: nil) == [.tooShort])
        // 65 syllables are 130 scalars in NFD, yet within the limit.
        let long = String(repeating: "가", count: 65).decomposedStringWithCanonicalMapping
        #expect(PasswordRule.validate(long, username: nil, email: nil) == [])
    }

    @Test("Listed passwords are too_common in any case", arguments: [
        "password123", "PassWord123", "QWERTY12345", "sunshine", "12345678",
    ])
    func common(_ password: String) {
        #expect(PasswordRule.isCommon(password))
        #expect(PasswordRule.validate(password, username: nil, email: nil) == [.tooCommon])
    }

    @Test func common_check_lowercases_beyond_ascii() {
        #expect(PasswordRule.isCommon("ЙЦУКЕН"))
        #expect(!PasswordRule.isCommon("correct horse battery"))
    }

    @Test func containing_the_nickname_is_too_similar() {
        #expect(PasswordRule.validate("xxMINAxx99", username: "mina", email: nil) == [.tooSimilar])
        #expect(PasswordRule.validate("나는김민수입니다", username: "김민수", email: nil) == [.tooSimilar])
        #expect(PasswordRule.validate("xxｍｉｎａxx99", username: " Mina ", email: nil) == [.tooSimilar])
        #expect(PasswordRule.validate("xxminoxx99", username: "mina", email: nil) == [])
    }

    @Test func a_nickname_of_invalid_length_is_not_looked_for() {
        #expect(PasswordRule.validate("abcdefgh12", username: "a", email: nil) == [])
        #expect(PasswordRule.validate("abcdefgh12", username: "", email: nil) == [])
    }

    @Test func email_local_part_of_3_or_more_is_too_similar() {
        #expect(PasswordRule.validate("myJOEpassword", username: nil, email: "joe@example.com") == [.tooSimilar])
        #expect(PasswordRule.validate("myjopassword1", username: nil, email: "jo@example.com") == [])
        #expect(PasswordRule.validate("abcdefgh12", username: nil, email: "a@x.io") == [])
        #expect(PasswordRule.validate("abcdefgh12", username: nil, email: "not an email") == [])
    }

    @Test func common_and_similar_are_both_reported() {
        #expect(PasswordRule.validate("password123", username: "password", email: nil) == [.tooCommon, .tooSimilar])
    }
}
