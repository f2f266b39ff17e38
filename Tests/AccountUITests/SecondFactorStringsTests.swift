import AccountAPI
import Foundation
import Testing
@testable import AccountUI

/// The second-factor screens' sentences with a number in them.
@Suite struct SecondFactorStringsTests {
    @Test func aCodesPlaceIsWrittenIntoItsSentence() {
        #if !canImport(Darwin)
        #expect(AccountUIStrings.position(3, of: 10, .en) == "3 of 10")
        #expect(AccountUIStrings.position(3, of: 10, .ko) == "3 of 10", "without a compiled table, English")
        #else
        #expect(AccountUIStrings.position(3, of: 10, .en) == "3 of 10")
        #expect(AccountUIStrings.position(3, of: 10, .ko) == "10개 중 3번째")
        #endif
    }

    @Test func theKoreanPositionPutsTheCountFirst() throws {
        let korean = try #require(StringCatalogTests.catalog?.strings[AccountUIStrings.Key.position.rawValue]?.localizations["ko"])
        #expect(String(format: korean.stringUnit.value, locale: Locale(identifier: "ko"), 3, 10) == "10개 중 3번째")
    }
}
