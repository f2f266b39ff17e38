import AccountAPI
import Foundation
import Testing
@testable import AccountUI

/// How the second-factor screens write the authenticator key and the recovery codes for people.
@Suite struct SecondFactorTextTests {
    @Test func theKeyShowsInGroupsOfFour() {
        #expect(SecondFactorText.grouped("JBSWY3DPEHPK3PXP") == "JBSW Y3DP EHPK 3PXP")
        #expect(SecondFactorText.grouped("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PX") == "JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PX", "a last short group stays")
        #expect(SecondFactorText.grouped("ABC") == "ABC")
        #expect(SecondFactorText.grouped("") == "")
    }

    @Test func groupingIgnoresSpacesAlreadyThere() {
        #expect(SecondFactorText.grouped("JBSW Y3DP EHPK 3PXP") == "JBSW Y3DP EHPK 3PXP")
        #expect(SecondFactorText.grouped("JBSWY3 DPEHPK") == "JBSW Y3DP EHPK")
    }

    @Test func groupingKeepsEveryCharacterInOrder() {
        let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
        for size in 1...7 {
            let grouped = SecondFactorText.grouped(secret, size: size)
            #expect(grouped.replacingOccurrences(of: " ", with: "") == secret)
            let groups: [Substring] = grouped.split(separator: " ")
            #expect(groups.dropLast().allSatisfy { $0.count == size })
        }
        #expect(SecondFactorText.grouped(secret, size: 0) == secret)
    }

    @Test func recoveryCodesAreCopiedOneALine() {
        let codes = ["abcde-12345", "fghij-67890", "klmno-13579"]
        #expect(SecondFactorText.recoveryCodes(codes) == "abcde-12345\nfghij-67890\nklmno-13579\n")
        #expect(SecondFactorText.recoveryCodes(codes).split(separator: "\n").map(String.init) == codes)
        #expect(SecondFactorText.recoveryCodes([]) == "")
    }

    @Test func countsAreWrittenIntoTheirSentences() {
        #if !canImport(Darwin)
        #expect(AccountUIStrings.position(3, of: 10, .en) == "3 of 10")
        #expect(AccountUIStrings.recoveryCodesLeft(7, .en) == "Recovery codes left: 7")
        #else
        #expect(AccountUIStrings.position(3, of: 10, .ko) == "10개 중 3번째")
        #expect(AccountUIStrings.recoveryCodesLeft(7, .ko) == "남은 복구 코드: 7개")
        #endif
    }

    @Test func theKoreanPositionPutsTheCountFirst() throws {
        let korean = try #require(StringCatalogTests.catalog?.strings[AccountUIStrings.Key.position.rawValue]?.localizations["ko"])
        #expect(String(format: korean.stringUnit.value, locale: Locale(identifier: "ko"), 3, 10) == "10개 중 3번째")
    }
}
