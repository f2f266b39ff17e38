import AccountAPI
import Foundation
import TestSupport
import Testing
@testable import AccountUI

/// The screens' String Catalog: every word the screens use is in it, in English and Korean, with
/// the same format arguments; on Linux (no compiled `.lproj`) a lookup falls back to English.
@Suite struct StringCatalogTests {
    struct Entry: Decodable {
        struct Localization: Decodable {
            struct Unit: Decodable {
                let state: String
                let value: String
            }
            let stringUnit: Unit
        }
        let localizations: [String: Localization]
    }

    struct Catalog: Decodable {
        let sourceLanguage: String
        let strings: [String: Entry]
    }

    static let catalog: Catalog? = {
        let url = PackageFiles.url("Sources/AccountUI/Resources/Localizable.xcstrings")
        return (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(Catalog.self, from: $0) }
    }()

    @Test func theCatalogIsEnglishFirst() throws {
        let catalog = try #require(Self.catalog, "Localizable.xcstrings is missing or not a String Catalog")
        #expect(catalog.sourceLanguage == "en")
    }

    @Test(arguments: AccountUIStrings.Key.allCases)
    func everyWordIsTranslated(key: AccountUIStrings.Key) throws {
        let entry = try #require(Self.catalog?.strings[key.rawValue], "\(key) is not in the catalog")
        for language in Language.allCases {
            let unit = try #require(entry.localizations[language.rawValue]?.stringUnit, "\(key) has no \(language)")
            #expect(unit.state == "translated")
            #expect(!unit.value.isEmpty)
            #expect(Self.arguments(unit.value) == Self.arguments(key.rawValue), "\(key) in \(language) takes other arguments")
        }
        #expect(entry.localizations["en"]?.stringUnit.value == key.rawValue, "the key is the English text")
    }

    @Test func theCatalogHoldsNothingTheScreensDoNotUse() throws {
        let keys = Set(try #require(Self.catalog).strings.keys)
        #expect(keys == Set(AccountUIStrings.Key.allCases.map(\.rawValue)))
    }

    @Test func withoutACompiledTableTheWordsAreEnglish() {
        #if !canImport(Darwin)
        #expect(AccountUIStrings.text(.logIn, .ko) == "Log in")
        #expect(AccountUIStrings.resendIn(42, .en) == "Resend in 42 s")
        #expect(AccountUIStrings.codeSent(to: "a@example.com", .en) == "We sent a code to a@example.com.")
        #else
        #expect(AccountUIStrings.text(.logIn, .ko) == "로그인")
        #expect(AccountUIStrings.resendIn(42, .ko) == "42초 후 다시 보내기")
        #endif
    }

    /// The format specifiers of a text, in order (`%@`, `%lld`).
    static func arguments(_ text: String) -> [String] {
        text.matches(of: /%(?:\d+\$)?(?:lld|ld|d|@)/).map { String($0.output).replacingOccurrences(of: #"\d+\$"#, with: "", options: .regularExpression) }
    }
}
