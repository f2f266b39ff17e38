import AccountAPI
import Foundation
import Testing

/// What the client checks of UTS #39 without ICU: invisible characters and look-alike scripts.
@Suite("Nickname spoofing, client side")
struct NicknameSpoofingRuleTests {
    @Test("Default_Ignorable code points are invisible_character, alone or inside a name", arguments: [
        "\u{3164}\u{3164}", "\u{115F}\u{1160}", "\u{FFA0}\u{FFA0}\u{FFA0}", "mi\u{3164}na", "민\u{115F}수", "mina\u{FFA0}",
        "mi\u{200B}na", "mi\u{200C}na", "mi\u{200D}na", "mi\u{202E}na", "mi\u{2066}na", "mi\u{00AD}na", "mi\u{FE0F}na",
        "mi\u{FE00}na", "mi\u{034F}na", "mi\u{2060}na", "mi\u{E0041}na", "mi\u{E0100}na", "mi\u{180B}na", "\u{FEFF}mina",
    ])
    func invisible(_ name: String) {
        #expect(UsernameRule.validate(name) == [.invisibleCharacter])
    }

    @Test func every_default_ignorable_scalar_is_refused() {
        var checked = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isDefaultIgnorableCodePoint else { continue }
            let codes = UsernameRule.validate("ab\(Character(scalar))cd")
            #expect(codes.contains(.invisibleCharacter), "U+\(String(value, radix: 16, uppercase: true))")
            checked += 1
        }
        #expect(checked > 4000)
    }

    @Test func invisible_and_other_faults_are_all_reported() {
        #expect(UsernameRule.validate("\u{3164}") == [.tooShort, .invisibleCharacter])
        #expect(UsernameRule.validate("mi\u{200B}na!") == [.invalidFormat, .invisibleCharacter])
    }

    @Test("Latin, Greek and Cyrillic letters mixed are mixed_script", arguments: [
        "\u{0430}dmin", "p\u{0430}ypal", "g\u{03BF}\u{03BF}gle", "Москваmoscow", "αbc", "ｍｉｎ\u{0430}", "김\u{0430}dmin",
        "\u{0391}\u{0434}", "mi\u{1F00}na",
    ])
    func lookalike_scripts(_ name: String) {
        #expect(UsernameRule.validate(name) == [.mixedScript])
    }

    @Test("One script, or Latin with Hangul, Han or kana, passes", arguments: [
        "mina", "김민수", "민수kim", "王小明", "Li王", "kim김王", "さくらSakura", "ΑΘΗΝΑ", "Москва", "Ünïcödé", "Łukasz_99",
    ])
    func allowed(_ name: String) {
        #expect(UsernameRule.validate(name) == [])
    }

    @Test func reserved_by_key_still_taken() {
        #expect(UsernameRule.validate("ＡＤＭＩＮ") == [.taken])
        #expect(UsernameRule.validate("Admin") == [.taken])
    }
}

@Suite("Email spellings")
struct EmailSpellingTests {
    @Test("Spellings of one address share a key", arguments: [
        ("\u{212A}im@example.com", "kim@example.com"),
        ("\u{017F}am@example.com", "sam@example.com"),
        ("ｍｉｎａ@ｅｘａｍｐｌｅ.com", "mina@example.com"),
        ("MINA@EXAMPLE.COM", "mina@example.com"),
        ("mina＠example．com", "mina@example.com"),
        ("\u{FB01}sh@example.com", "fish@example.com"),
        ("jose\u{0301}@example.com", "jos\u{00E9}@example.com"),
        ("\u{212B}ngstr\u{00F6}m@example.com", "\u{00C5}ngstr\u{00F6}m@example.com"),
    ])
    func one_key(_ pair: (String, String)) {
        let (a, b) = pair
        #expect(EmailRule.key(EmailRule.normalize(a)) == EmailRule.key(EmailRule.normalize(b)))
        #expect(EmailRule.validate(a) == [])
    }

    @Test func different_addresses_keep_different_keys() {
        #expect(EmailRule.key(EmailRule.normalize("mina@example.com")) != EmailRule.key(EmailRule.normalize("nina@example.com")))
        #expect(EmailRule.key(EmailRule.normalize("kim@example.com")) != EmailRule.key(EmailRule.normalize("kin@example.com")))
    }

    @Test func normalize_is_nfkc_and_keeps_case() {
        #expect(EmailRule.normalize(" \u{212A}im@Example.com ") == "Kim@Example.com")
        #expect(EmailRule.normalize("ｍｉｎａ@example.com") == "mina@example.com")
        #expect(EmailRule.normalize("mina＠example．com") == "mina@example.com")
    }

    @Test("Invisible characters make an address invalid", arguments: [
        "mi\u{FE0F}na@example.com", "mina\u{00AD}@example.com", "mina@exam\u{3164}ple.com", "mi\u{034F}na@example.com",
    ])
    func invisible_is_invalid(_ address: String) {
        #expect(EmailRule.validate(address) == [.invalidFormat])
    }
}
