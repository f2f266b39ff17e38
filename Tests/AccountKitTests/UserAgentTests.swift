import AccountAPI
import Foundation
import Testing
@testable import AccountKit

/// The `User-Agent` that names a device in the sessions list, and the language that follows the app.
@Suite struct UserAgentTests {
    let iPhone = DeviceInfo(model: "iPhone15,2", system: "iOS", systemVersion: "17.4")

    @Test func theAppsNameVersionBuildDeviceAndSystemFromItsBundle() {
        let info: [String: Any] = [
            "CFBundleDisplayName": "MBTI Playground", "CFBundleName": "Playground", "CFBundleExecutable": "PlaygroundApp",
            "CFBundleShortVersionString": "1.2", "CFBundleVersion": "42",
        ]
        let agent = UserAgent.app(info: info, processName: "PlaygroundApp", device: iPhone)
        #expect(agent.header == "MBTI%20Playground/1.2 (iPhone15,2; iOS 17.4; build 42) AccountKit")
        #expect(agent.deviceName == "MBTI Playground 1.2 · iPhone15,2 · iOS 17.4")
    }

    @Test func aKoreanNameIsEscapedOnTheWireAndReadBack() {
        let agent = UserAgent.app(info: ["CFBundleDisplayName": "엠비티아이 놀이터", "CFBundleShortVersionString": "2.0"], processName: "x", device: iPhone)
        #expect(agent.header.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 }, "\(agent.header)")
        let parsed = UserAgent(header: agent.header)
        #expect(parsed?.deviceName == "엠비티아이 놀이터 2.0 · iPhone15,2 · iOS 17.4")
    }

    @Test func withoutABundleTheProcessNameStandsIn() {
        let agent = UserAgent.app(info: [:], processName: "tool", device: DeviceInfo(model: "x86_64", system: "Linux", systemVersion: "6.1"))
        #expect(agent.header == "tool (x86_64; Linux 6.1) AccountKit")
    }

    @Test func commentCharactersCannotBreakTheHeader() {
        let agent = UserAgent(name: "a(b)", version: "1;2", details: ["host; (evil)", "Linux 6"])
        #expect(!agent.header.dropLast(" AccountKit".count).dropFirst().contains("(b"), "\(agent.header)")
        #expect(UserAgent(header: agent.header) == agent)
    }

    @Test func theDefaultHeaderNamesThisMachine() throws {
        let header = AccountClient.defaultUserAgent()
        let parsed: UserAgent? = UserAgent(header: header)
        let agent = try #require(parsed, "\(header)")
        #expect(agent.details.contains { $0.hasPrefix(DeviceInfo.current.system + " ") }, "\(header)")
        #expect(AccountClient(baseURL: offlineURL).userAgent == header, "the client sends it unless told otherwise")
    }

    @Test func aProgramsHeaderNamesItsVersionAndHost() {
        let header = AccountClient.userAgent(program: "account", version: "1.4.0", host: "build-box")
        #expect(header.hasPrefix("account/1.4.0 (build-box; \(DeviceInfo.current.system) "))
        let info = SessionInfo(id: UUID(), createdAt: Date(), lastUsedAt: Date(), userAgent: header, current: false)
        #expect(info.deviceName?.hasPrefix("account 1.4.0 · build-box · ") == true)
    }

    @Test func otherUserAgentsShowAsTheyAre() {
        let curl = SessionInfo(id: UUID(), createdAt: Date(), lastUsedAt: Date(), userAgent: "curl/8.5.0", current: false)
        #expect(curl.deviceName == "curl/8.5.0")
        let none = SessionInfo(id: UUID(), createdAt: Date(), lastUsedAt: Date(), userAgent: nil, current: false)
        #expect(none.deviceName == nil)
    }

    @Test(arguments: [
        (["ko"], Language.ko), (["ko-KR"], .ko), (["en-GB", "ko"], .en), (["ja", "ko"], .ko), (["ja"], .en), ([], .en),
        (["zh-Hans_CN"], .en), (["KO_kr"], .ko),
    ])
    func theLanguageIsTheFirstOfTheAppsLocalizationsTheAPISpeaks(localizations: [String], language: Language) {
        #expect(Language(localizations: localizations) == language)
    }
}
