import AccountAPI
import Testing

@Suite("Email rule")
struct EmailRuleTests {
    @Test("Plain addresses pass", arguments: [
        "mina@example.com", "mina.kim+mbti@mail.example.co.kr", "a@b.io", "  Mina@Example.com\n",
        "민수@예시.한국",
    ])
    func valid(_ address: String) {
        #expect(EmailRule.validate(address) == [])
    }

    @Test func empty_is_required() {
        #expect(EmailRule.validate("") == [.required])
        #expect(EmailRule.validate("   ") == [.required])
    }

    @Test("Malformed addresses are invalid_format", arguments: [
        "minaexample.com", "mi@na@example.com", "mina@example.com@evil.io", "mina@localhost", "@example.com", "mina@",
        "mina @example.com", "mina@exa mple.com", "mina@.example.com", "mina@example.com.",
        "mina@.", "mina\u{0007}@example.com", "mi\u{200B}na@example.com", "mina@exa\u{202E}mple.com",
        "mi\tna@example.com",
    ])
    func invalid(_ address: String) {
        #expect(EmailRule.validate(address) == [.invalidFormat])
    }

    @Test func at_most_254_characters() {
        let domain = "@example.com"
        let fits = String(repeating: "a", count: 254 - domain.count) + domain
        let over = String(repeating: "a", count: 255 - domain.count) + domain
        #expect(fits.count == 254 && over.count == 255)
        #expect(EmailRule.validate(fits) == [])
        #expect(EmailRule.validate(over) == [.tooLong])
        #expect(EmailRule.validate(String(repeating: "a", count: 300)) == [.tooLong, .invalidFormat])
    }

    @Test func normalize_trims_and_key_lowercases_the_whole_address() {
        #expect(EmailRule.normalize("  Mina@Example.COM \n") == "Mina@Example.COM")
        #expect(EmailRule.key("Mina@Example.COM") == "mina@example.com")
    }
}
