import AccountStore
import Foundation
import HTTPServer
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// A disabled account (`users.disabled_at`, set here straight in the store, sessions left alone on
/// purpose) is refused by what authentication reads, on every path: a session's access token on
/// the ordinary and the inline `GET /auth/me` (its token verified and cached before), refresh,
/// and login after a right password; a wrong password stays the usual 401.
@Suite("a disabled account is refused by the session read itself")
struct DisabledAccountReadTests {
    func me(_ token: String) -> HTTPRequest {
        var headers: HTTPHeaders = ["X-Request-Id": "req-disabled"]
        headers.set("Authorization", "Bearer \(token)")
        return HTTPRequest(method: "GET", path: "/auth/me", query: [:], headers: headers, body: [])
    }

    @Test func everyPathRefusesADisabledAccount() async throws {
        let harness = try await Harness.make()
        let login = try await harness.signedIn(.minsu)
        let (token, refresh, userID) = (login.access, login.refresh, login.user.id)
        // Verified once, so the inline path has the token in its cache.
        #expect(Reply(response: await harness.app.handle(me(token))).status == 200)
        #expect(harness.app.answeredAtOnce(me(token))?.status == 200)

        #expect(try await harness.store.write { try $0.setDisabled(userID: userID, at: Date()) })
        let ordinary = Reply(response: await harness.app.handle(me(token)))
        #expect(ordinary.status == 401 && ordinary.code == "session_revoked", "\(ordinary.text)")
        let inline = Reply(response: try #require(harness.app.answeredAtOnce(me(token))))
        #expect(inline.text == ordinary.text)
        let sessions = try await harness.send("GET", "/auth/sessions", token: token)
        #expect(sessions.status == 401 && sessions.code == "session_revoked")
        let refreshed = try await harness.send("POST", "/auth/refresh", json: ["refresh": refresh])
        #expect(refreshed.status == 401 && refreshed.code == "session_revoked", "\(refreshed.text)")
        let wrong = try await harness.send("POST", "/auth/login", json: ["email": "minsu@example.com", "password": "wrong horse battery"])
        #expect(wrong.status == 401 && wrong.code == "invalid_credentials")
        let right = try await harness.send("POST", "/auth/login", json: ["email": "minsu@example.com", "password": "correct horse battery"])
        #expect(right.status == 403 && right.code == "account_disabled", "\(right.text)")

        // Enabled again: the refresh token that was refused still works (nothing was spent), and login too.
        #expect(try await harness.store.write { try $0.setDisabled(userID: userID, at: nil) })
        #expect(try await harness.send("POST", "/auth/refresh", json: ["refresh": refresh]).status == 200)
        #expect(try await harness.send("POST", "/auth/login", json: ["email": "minsu@example.com", "password": "correct horse battery"]).status == 200)
    }
}
