import AccountAPI
import Testing
@testable import AccountUI

/// The screens' formatted words fill in their argument (on Linux, where no `.lproj` is compiled,
/// in English).
@Suite struct ScreenWordsTests {
    @Test func theSessionsListNamesTheDeviceItLogsOut() {
        #if !canImport(Darwin)
        #expect(AccountUIStrings.logOutDevice("iPhone", .en) == "Log out iPhone")
        #expect(AccountUIStrings.logOutDeviceTitle("iPhone", .en) == "Log out “iPhone”?")
        #else
        #expect(AccountUIStrings.logOutDevice("iPhone", .ko) == "iPhone 로그아웃")
        #expect(AccountUIStrings.logOutDeviceTitle("iPhone", .ko) == "“iPhone”에서 로그아웃할까요?")
        #endif
    }

    @Test func theCodeSentLineNeedsNoParticleChoice() throws {
        let catalog = try #require(StringCatalogTests.catalog)
        let korean = try #require(catalog.strings[AccountUIStrings.Key.codeSentTo.rawValue]?.localizations["ko"]?.stringUnit.value)
        #expect(korean == "%@ 주소로 인증 코드를 보냈어요.")
        for entry in catalog.strings.values {
            let value = entry.localizations["ko"]?.stringUnit.value ?? ""
            for fallback in ["(으)로", "을(를)", "은(는)", "이(가)", "와(과)"] {
                #expect(!value.contains(fallback), "\(value)")
            }
        }
    }
}
