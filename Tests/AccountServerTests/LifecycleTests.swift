import AccountAPI
import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

@Suite("Password change and reset, sessions, account deletion")
struct LifecycleTests {
    @Test("changing the password needs the current one and revokes every other session")
    func changePassword() async throws {
        let harness = try await Harness.make()
        let first = try await harness.signedInUser("bora", email: "bora@example.com", password: "correct horse battery").decode(TokenPair.self)
        let second = try await harness.send("POST", "/auth/login", json: ["username": "bora", "password": "correct horse battery"]).decode(TokenPair.self)
        let wrong = try await harness.send("POST", "/auth/password/change", json: ["current_password": "nope nope nope", "new_password": "a brand new secret"], token: first.access)
        #expect(wrong.code == "invalid_credentials")
        let weak = try await harness.send("POST", "/auth/password/change", json: ["current_password": "correct horse battery", "new_password": "bora1234"], token: first.access)
        #expect(weak.fieldCodes("new_password") == ["too_similar"])
        let changed = try await harness.send("POST", "/auth/password/change", json: ["current_password": "correct horse battery", "new_password": "a brand new secret"], token: first.access)
        #expect(changed.status == 204)
        #expect(try await harness.send("GET", "/auth/me", token: first.access).status == 200)
        #expect(try await harness.send("GET", "/auth/me", token: second.access).code == "session_revoked")
        #expect(try await harness.send("POST", "/auth/login", json: ["username": "bora", "password": "correct horse battery"]).status == 401)
        #expect(try await harness.send("POST", "/auth/login", json: ["username": "bora", "password": "a brand new secret"]).status == 200)
    }

    @Test("a reset code sets a new password and ends every session; an unknown address answers the same")
    func passwordReset() async throws {
        let harness = try await Harness.make()
        let pair = try await harness.signedInUser("dami", email: "dami@example.com", password: "correct horse battery").decode(TokenPair.self)
        // One message a minute per address: the sign-up's code went out just now.
        harness.clock.advance(61)
        let known = try await harness.send("POST", "/auth/password/reset", json: ["email": "DAMI@example.com"])
        let unknown = try await harness.send("POST", "/auth/password/reset", json: ["email": "ghost@example.com"])
        #expect(known.status == 202)
        #expect(unknown.status == 202)
        #expect(Set(known.json.keys) == Set(unknown.json.keys))
        #expect(try await harness.latestCode(to: "ghost@example.com") == nil)
        let code = try #require(try await harness.latestCode(to: "dami@example.com"))
        let guessed = try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "ghost@example.com", "code": code, "new_password": "another good secret"])
        #expect(guessed.code == "code_invalid")
        let reset = try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "another good secret"])
        #expect(reset.status == 204)
        #expect(try await harness.send("GET", "/auth/me", token: pair.access).code == "session_revoked")
        #expect(try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "yet another secret"]).code == "code_invalid")
        #expect(try await harness.send("POST", "/auth/login", json: ["username": "dami", "password": "another good secret"]).status == 200)
        // A reset code is not an email-verification code.
        harness.clock.advance(61)
        try await harness.send("POST", "/auth/password/reset", json: ["email": "dami@example.com"])
        let resetCode = try #require(try await harness.latestCode(to: "dami@example.com"))
        #expect(try await harness.send("POST", "/auth/email/verify", json: ["email": "dami@example.com", "code": resetCode]).code == "code_invalid")
    }

    @Test("the sessions list shows the live ones; another account's session is 404")
    func sessions() async throws {
        let harness = try await Harness.make()
        let mine = try await harness.signedInUser("nari", email: "nari@example.com", password: "correct horse battery").decode(TokenPair.self)
        let other = try await harness.send("POST", "/auth/login", json: ["username": "nari", "password": "correct horse battery"], headers: ["User-Agent": "PhoneApp/1.0"]).decode(TokenPair.self)
        let stranger = try await harness.signedInUser("juno", email: "juno@example.com", password: "correct horse battery").decode(TokenPair.self)
        let list = try await harness.send("GET", "/auth/sessions", token: mine.access).decode(SessionList.self)
        #expect(list.sessions.count == 2)
        #expect(list.sessions.filter(\.current).count == 1)
        #expect(list.sessions.contains { $0.userAgent == "PhoneApp/1.0" && !$0.current })
        let strangerSession = try #require(try await harness.send("GET", "/auth/sessions", token: stranger.access).decode(SessionList.self).sessions.first)
        #expect(try await harness.send("DELETE", "/auth/sessions/\(strangerSession.id.uuidString)", token: mine.access).status == 404)
        #expect(try await harness.send("DELETE", "/auth/sessions/not-a-uuid", token: mine.access).status == 404)
        let otherID = try #require(list.sessions.first { !$0.current }?.id)
        #expect(try await harness.send("DELETE", "/auth/sessions/\(otherID.uuidString.lowercased())", token: mine.access).status == 204)
        #expect(try await harness.send("GET", "/auth/me", token: other.access).code == "session_revoked")
        #expect(try await harness.send("GET", "/auth/me", token: stranger.access).status == 200)
    }

    @Test("deleting the account needs the password and frees its nickname and address")
    func deleteAccount() async throws {
        let harness = try await Harness.make()
        let pair = try await harness.signedInUser("leaving", email: "leaving@example.com", password: "correct horse battery").decode(TokenPair.self)
        #expect(try await harness.send("DELETE", "/auth/me", json: ["password": "wrong wrong wrong"], token: pair.access).code == "invalid_credentials")
        #expect(try await harness.send("DELETE", "/auth/me", json: ["password": "correct horse battery"], token: pair.access).status == 204)
        #expect(try await harness.send("GET", "/auth/me", token: pair.access).code == "session_revoked")
        #expect(try await harness.send("POST", "/auth/refresh", json: ["refresh": pair.refresh]).code == "token_invalid")
        let counts = try await harness.rowCounts()
        #expect(counts["users"] == 0)
        #expect(counts["sessions"] == 0)
        #expect(counts["codes"] == 0)
        let again = try await harness.send("POST", "/auth/signup", json: ["username": "leaving", "email": "leaving@example.com", "password": "correct horse battery", "mbti": "intp"])
        #expect(again.status == 202)
    }
}
