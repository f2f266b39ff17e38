import Foundation
import Testing
import UnicodeSecurity

@Suite("ICU spoof checker")
struct SpoofCheckerTests {
    let checker: SpoofChecker
    init() throws { checker = try SpoofChecker() }

    @Test("One script, or Latin with Hangul, Han or Japanese kana, passes", arguments: [
        "mina", "김민수", "민수kim", "王小明", "Li王", "kim김王", "さくらSakura", "カタカナ漢字abc", "mina_99", "ΑΘΗΝΑ", "Москва",
        "ㅋㅋlol", "Ünïcödé",
    ])
    func single_or_allowed_mix_passes(_ name: String) throws {
        #expect(try checker.check(name) == [])
    }

    @Test("Other mixes fail the restriction level", arguments: [
        "\u{0430}dmin", "p\u{0430}ypal", "g\u{03BF}\u{03BF}gle", "Москваmoscow", "αbc", "민수\u{0430}", "abc\u{05D0}",
        "ab\u{0E01}", "\u{13A0}bc",
    ])
    func mixed_scripts_fail(_ name: String) throws {
        #expect(try checker.check(name).contains(.restrictionLevel))
    }

    @Test func mixed_number_systems_fail() throws {
        #expect(try checker.check("abc1\u{FF12}").contains(.mixedNumbers))
        #expect(try checker.check("abc12") == [])
    }

    @Test("Confusables share a skeleton", arguments: [
        ("\u{0430}dmin", "admin"), ("adm\u{0131}n", "admin"), ("paypa1", "paypal"), ("\u{0440}\u{0430}y\u{0440}al", "paypal"),
        ("g\u{03BF}\u{03BF}gle", "google"), ("rn", "m"),
    ])
    func confusables_share_a_skeleton(_ pair: (String, String)) throws {
        #expect(try checker.skeleton(pair.0) == checker.skeleton(pair.1))
    }

    @Test func different_names_keep_different_skeletons() throws {
        #expect(try checker.skeleton("mina") != checker.skeleton("nina"))
        #expect(try checker.skeleton("김민수") != checker.skeleton("김민서"))
        #expect(try checker.skeleton("김민수") == checker.skeleton("김민수".decomposedStringWithCanonicalMapping))
    }

    @Test func skeleton_of_a_long_text_grows_its_buffer() throws {
        // Each of these expands to several scalars, more than the first buffer holds.
        let long = String(repeating: "\u{FDFA}", count: 40)
        let skeleton = try checker.skeleton(long)
        #expect(skeleton.unicodeScalars.count > 80)
        #expect(try checker.skeleton(skeleton) == skeleton)
    }

    @Test func checker_is_usable_from_many_threads() async throws {
        let checker = self.checker
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<64 { group.addTask { try checker.skeleton(index.isMultiple(of: 2) ? "\u{0430}dmin" : "adm\u{0131}n") } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(results == [try checker.skeleton("admin")])
    }

    @Test func versions_and_scripts_come_from_icu() throws {
        #expect(UnicodeData.icuVersion.split(separator: ".").count >= 2)
        #expect(UnicodeData.unicodeVersion.split(separator: ".").count >= 2)
        #expect(try UnicodeData.scriptExtensions(of: "a") == ["Latn"])
        #expect(try UnicodeData.scriptExtensions(of: "\u{0430}") == ["Cyrl"])
        #expect(try UnicodeData.scriptExtensions(of: "1") == ["Zyyy"])
        #expect(try UnicodeData.scriptExtensions(of: "가") == ["Hang"])
    }

    @Test func works_beside_foundations_own_icu() throws {
        // Foundation's locale-aware calls run on the ICU it carries (symbols prefixed `swift_`);
        // the checker on the system's. Both in one process, each must give its own right answers.
        #expect("i".uppercased(with: Locale(identifier: "tr_TR")) == "\u{0130}")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "ko_KR")
        formatter.dateFormat = "EEEE"
        formatter.timeZone = TimeZone(identifier: "UTC")
        #expect(formatter.string(from: Date(timeIntervalSince1970: 0)) == "목요일")
        #expect(try checker.skeleton("\u{0430}dmin") == checker.skeleton("admin"))
        #expect("I".uppercased(with: Locale(identifier: "tr_TR")) == "I")
    }
}
