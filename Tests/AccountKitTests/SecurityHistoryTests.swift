import AccountAPI
import Foundation
import TestSupport
import Testing

@testable import AccountKit

/// The security history through AccountKit against the real server binary: the call, the
/// model's pages, its texts in both languages, and what it does when the session ends.
@MainActor @Suite struct SecurityHistoryTests {
    @Test func theModelPagesThroughTheAccountsOwnEventsInItsLanguage() async throws {
        let server = try await ServerProcess.start()
        let account = try await server.registered()
        let session = SessionManager.inMemory(server.client())
        // A sign-in on another device first (one on this manager would be replaced, and ended, by the next).
        try await SessionManager.inMemory(server.client()).logIn(account.login)
        // Someone else guesses a wrong password, and another account signs in: only the first is ours.
        let wrong = try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": "wrong password 42"])
        #expect(wrong.status == 401)
        let other = try await server.registered()
        try await SessionManager.inMemory(server.client()).logIn(other.login)
        try await session.logIn(account.login)

        let page = try await session.securityEvents()
        #expect(page.events.map(\.type) == ["login_succeeded", "login_failed", "login_succeeded"])
        #expect(page.next == nil)
        // AccountKit's own User-Agent names this device, as it does in the sessions list.
        let device = try #require(page.events.first?.deviceName)
        #expect(try await session.sessions().first?.deviceName == device)

        let history = SecurityHistory(session: session, pageSize: 2)
        await history.load()
        #expect(history.entries.map(\.title) == ["Signed in", "Wrong password entered"])
        #expect(history.entries.map(\.isWarning) == [false, true])
        #expect(history.entries.first?.origin == "\(device) · 127.0.0.1")
        #expect(history.hasMore && !history.isEmpty && history.message == nil)
        await history.loadMore()
        #expect(history.entries.map(\.event.type) == ["login_succeeded", "login_failed", "login_succeeded"])
        #expect(!history.hasMore)
        await history.loadMore()
        #expect(history.entries.count == 3, "no page after the last")

        let korean = SessionManager.inMemory(server.client(language: .ko))
        try await korean.logIn(account.login)
        let inKorean = SecurityHistory(session: korean)
        await inKorean.load()
        #expect(inKorean.entries.prefix(3).map(\.title) == ["로그인했어요", "로그인했어요", "잘못된 비밀번호가 입력됐어요"])

        // Signed out everywhere: the screen says so and shows nothing.
        try await korean.logOut(everywhere: true)
        await history.load()
        #expect(history.isSignedOut && history.entries.isEmpty && history.message != nil)
        await server.stop()
    }

    @Test func everyKnownKindHasItsOwnTitleAndAnUnknownOneAGenericTitle() {
        func event(_ type: String, _ detail: [String: String]? = nil) -> SecurityEvent {
            SecurityEvent(id: UUID().uuidString, at: Date(), type: type, clientAddress: nil, deviceName: nil, detail: detail)
        }
        var titles: Set<String> = []
        for kind in SecurityEventKind.allCases {
            let title = SecurityEventTexts.title(event(kind.rawValue))
            #expect(!title.en.isEmpty && !title.ko.isEmpty && title.en != title.ko, "\(kind)")
            titles.insert(title.en)
        }
        #expect(titles.count == SecurityEventKind.allCases.count, "each kind says what it is")
        let unknown = SecurityEventTexts.title(event("email_changed"))
        #expect(unknown == LocalizedText(en: "Account activity", ko: "계정 활동"))
        #expect(!titles.contains(unknown.en))
        #expect(SecurityEventTexts.origin(event("email_changed")) == nil)

        #expect(SecurityEventTexts.title(event("login_succeeded", ["method": "passkey"])).en == "Signed in with a passkey")
        #expect(SecurityEventTexts.title(event("login_failed", ["check": "second_factor"])).ko == "잘못된 인증 코드가 입력됐어요")
        #expect(SecurityEventTexts.title(event("passkey_added", ["name": "내 아이폰"])).ko == "패스키를 추가했어요: 내 아이폰")
        #expect(SecurityEventTexts.title(event("session_ended", ["reason": "logout_others", "count": "3"])).en == "Signed out on 3 other devices")
        #expect(SecurityEventTexts.isWarning(event("session_ended", ["reason": "refresh_token_reused", "count": "1"])))
        #expect(!SecurityEventTexts.isWarning(event("session_ended", ["reason": "logout", "count": "1"])))
        // A kind this client does not know decodes, and is shown generically.
        let decoded = try? AccountJSON.makeDecoder().decode(SecurityEvent.self, from: Data(#"""
            {"id":"x","at":"2026-11-30T04:46:45Z","type":"something_new","client_address":null,"device_name":null,"detail":{"a":"b"}}
            """#.utf8))
        #expect(decoded?.kind == nil && decoded?.detail == ["a": "b"])
    }
}
