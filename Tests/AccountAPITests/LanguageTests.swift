import AccountAPI
import Testing

@Suite("Language from Accept-Language")
struct LanguageTests {
    @Test("Picks the best supported language by weight", arguments: [
        ("ko-KR,ko;q=0.9,en;q=0.8", Language.ko),
        ("fr, en;q=0.5", .en),
        ("en;q=0.5, ko;q=0.9", .ko),
        ("ko", .ko),
        ("EN-us", .en),
        ("KO-kr", .ko),
        ("fr-CH, fr;q=0.9, ko;q=0.7, *;q=0.5", .ko),
        ("ko;q=0, en;q=0.1", .en),
        ("ko;q=0", .en),
        ("en, ko", .en),
        ("ko, en", .ko),
        ("garbage", .en),
        (";;;,,,q=", .en),
        ("", .en),
    ])
    func parses(_ header: String, _ expected: Language) {
        #expect(Language(acceptLanguage: header) == expected)
    }

    @Test func absent_header_is_english() {
        #expect(Language(acceptLanguage: nil) == .en)
    }
}
