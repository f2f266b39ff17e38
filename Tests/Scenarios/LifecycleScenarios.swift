import AccountAPI
import Foundation
import Testing
import TestSupport

/// Password change and reset, the sessions list, account deletion.
enum LifecycleScenarios {
    static let all = Scenario.set("Password change and reset, sessions, account deletion", [
        ("changing the password needs the current one and revokes every other session", changePassword),
        ("a reset code sets a new password and ends every session; an unknown address answers the same", passwordReset),
        ("the sessions list shows the live ones; another account's session is 404", sessions),
        ("deleting the account needs the password and frees its nickname and address", deleteAccount),
    ])

    static func changePassword(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let bora = TestAccount(username: "bora", email: "bora@example.com", password: "correct horse battery")
        let first = try await server.signedIn(bora)
        let second = try await server.logIn(bora)
        let wrong = try await server.send("POST", "/auth/password/change", json: ["current_password": "nope nope nope", "new_password": "a brand new secret"], token: first.access)
        #expect(wrong.code == "invalid_credentials")
        let weak = try await server.send("POST", "/auth/password/change", json: ["current_password": "correct horse battery", "new_password": "bora1234"], token: first.access)
        #expect(weak.fieldCodes("new_password") == ["too_similar"])
        let changed = try await server.send("POST", "/auth/password/change", json: ["current_password": "correct horse battery", "new_password": "a brand new secret"], token: first.access)
        #expect(changed.status == 204)
        #expect(try await server.me(first.access).status == 200)
        #expect(try await server.me(second.access).code == "session_revoked")
        #expect(try await server.send("POST", "/auth/login", json: ["username": "bora", "password": "correct horse battery"]).status == 401)
        #expect(try await server.send("POST", "/auth/login", json: ["username": "bora", "password": "a brand new secret"]).status == 200)
        await server.stop()
    }

    static func passwordReset(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let pair = try await server.signedIn(TestAccount(username: "dami", email: "dami@example.com", password: "correct horse battery"))
        // One message a minute per address: the sign-up's code went out just now.
        server.clock.advance(61)
        let known = try await server.send("POST", "/auth/password/reset", json: ["email": "DAMI@example.com"])
        let unknown = try await server.send("POST", "/auth/password/reset", json: ["email": "ghost@example.com"])
        #expect(known.status == 202)
        #expect(unknown.status == 202)
        #expect(Set(known.json.keys) == Set(unknown.json.keys))
        let code = try await server.mail.code(to: "dami@example.com", skipping: 1)
        #expect(try await server.mail.settledCount(to: "ghost@example.com", expected: 0) == 0, "nothing is mailed to an unknown address")
        let guessed = try await server.send("POST", "/auth/password/reset/confirm", json: ["email": "ghost@example.com", "code": code, "new_password": "another good secret"])
        #expect(guessed.code == "code_invalid")
        let reset = try await server.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "another good secret"])
        #expect(reset.status == 204 && reset.body.isEmpty)
        #expect(try await server.me(pair.access).code == "session_revoked")
        let again = try await server.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": code, "new_password": "yet another secret"])
        #expect(again.code == "code_invalid")
        #expect(try await server.send("POST", "/auth/login", json: ["username": "dami", "password": "another good secret"]).status == 200)
        // A reset code is not an email-verification code.
        server.clock.advance(61)
        try await server.send("POST", "/auth/password/reset", json: ["email": "dami@example.com"])
        let resetCode = try await server.mail.code(to: "dami@example.com", skipping: 2)
        #expect(try await server.send("POST", "/auth/email/verify", json: ["email": "dami@example.com", "code": resetCode]).code == "code_invalid")
        await server.stop()
    }

    static func sessions(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let nari = TestAccount(username: "nari", email: "nari@example.com", password: "correct horse battery")
        let mine = try await server.signedIn(nari)
        let other = try await server.logIn(nari, headers: ["User-Agent": "PhoneApp/1.0"])
        let stranger = try await server.signedIn(TestAccount(username: "juno", email: "juno@example.com", password: "correct horse battery"))
        let list = try await server.send("GET", "/auth/sessions", token: mine.access).decode(SessionList.self)
        #expect(list.sessions.count == 2)
        #expect(list.sessions.filter(\.current).count == 1)
        #expect(list.sessions.contains { $0.userAgent == "PhoneApp/1.0" && !$0.current })
        let strangerSession = try #require(try await server.send("GET", "/auth/sessions", token: stranger.access).decode(SessionList.self).sessions.first)
        #expect(try await server.send("DELETE", "/auth/sessions/\(strangerSession.id.uuidString)", token: mine.access).status == 404)
        #expect(try await server.send("DELETE", "/auth/sessions/\(strangerSession.id.uuidString.lowercased())", token: mine.access).status == 404)
        #expect(try await server.send("DELETE", "/auth/sessions/not-a-uuid", token: mine.access).status == 404)
        let otherID = try #require(list.sessions.first { !$0.current }?.id)
        #expect(try await server.send("DELETE", "/auth/sessions/\(otherID.uuidString.lowercased())", token: mine.access).status == 204)
        #expect(try await server.me(other.access).code == "session_revoked")
        #expect(try await server.me(stranger.access).status == 200)
        await server.stop()
    }

    static func deleteAccount(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let pair = try await server.signedIn(TestAccount(username: "leaving", email: "leaving@example.com", password: "correct horse battery"))
        #expect(try await server.send("DELETE", "/auth/me", json: ["password": "wrong wrong wrong"], token: pair.access).code == "invalid_credentials")
        #expect(try await server.send("DELETE", "/auth/me", json: ["password": "correct horse battery"], token: pair.access).status == 204)
        let me = try await server.me(pair.access)
        #expect(me.status == 401 && me.code == "session_revoked")
        #expect(try await server.refresh(pair.refresh).code == "token_invalid")
        let counts = try await server.rowCounts()
        #expect(counts["users"] == 0)
        #expect(counts["sessions"] == 0)
        #expect(counts["codes"] == 0)
        let again = try await server.send("POST", "/auth/signup", json: ["username": "leaving", "email": "leaving@example.com", "password": "correct horse battery", "mbti": "intp"])
        #expect(again.status == 202)
        await server.stop()
    }
}
