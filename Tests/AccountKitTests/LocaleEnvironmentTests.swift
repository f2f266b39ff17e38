import AccountAPI
import Foundation
import Testing
@testable import AccountKit

/// Outside Apple platforms the client's language comes from the POSIX locale variables, as every
/// command-line program's does: `LC_ALL`, then `LC_MESSAGES`, then `LANG`.
@Suite struct LocaleEnvironmentTests {
    @Test(arguments: [
        (["LANG": "ko_KR.UTF-8"], Language.ko),
        (["LANG": "ko"], .ko),
        (["LANG": "en_US.UTF-8"], .en),
        (["LC_ALL": "ko_KR.UTF-8", "LC_MESSAGES": "en_US.UTF-8", "LANG": "en_US.UTF-8"], .ko),
        (["LC_ALL": "en_US.UTF-8", "LANG": "ko_KR.UTF-8"], .en),
        (["LC_MESSAGES": "ko_KR.eucKR", "LANG": "en_US.UTF-8"], .ko),
        (["LC_ALL": "", "LC_MESSAGES": "", "LANG": "ko_KR.UTF-8"], .ko),
        (["LC_MESSAGES": "ko_KR@euro"], .ko),
        (["LANG": "C"], .en),
        (["LANG": "POSIX"], .en),
        (["LANG": "fr_FR.UTF-8"], .en),
        ([:], .en),
    ])
    func theFirstSetVariableChooses(environment: [String: String], language: Language) {
        #expect(Language(localeEnvironment: environment) == language)
    }

    @Test func aProgramOnLinuxSpeaksItsLocalesLanguage() {
        #if !canImport(Darwin)
        let expected = Language(localeEnvironment: ProcessInfo.processInfo.environment)
        #expect(AccountClient.preferredLanguage() == expected)
        #endif
    }
}
