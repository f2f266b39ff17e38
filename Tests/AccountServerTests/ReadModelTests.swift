import AccountStore
import AccountStoreCache
import AccountStoreSQLite
import Foundation
import HTTPServer
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// Every write that changes what `GET /auth/me` answers is seen by the very next `/auth/me`, on
/// every path: inline (`fastHandle`) and ordinary (`handle`), each with the read model on (the
/// answer from memory, proven a hit before the write) and off (the database each time).
@Suite("The read model: the next /auth/me sees every write")
struct ReadModelTests {
    /// Read model on, then off.
    static let modes = [true, false]

    /// An app with the read model on or off.
    func harness(model: Bool, _ configure: @escaping (inout ServerConfiguration) -> Void = { _ in }) async throws -> Harness {
        try await Harness.make { configuration in
            configuration.readModel = model
            configure(&configuration)
        }
    }

    func me(_ token: String) -> HTTPRequest {
        HTTPRequest(method: "GET", path: "/auth/me", query: [:], headers: ["Authorization": "Bearer \(token)"], body: [])
    }

    /// Signs up and logs in (`session` more logins of the same account give more sessions).
    func account(_ harness: Harness, _ name: String = "민수", email: String = "minsu@example.com", sessions: Int = 1) async throws -> [String] {
        var tokens = [try await harness.signedIn(TestAccount(username: name, email: email, password: "correct horse battery")).access]
        for _ in 1..<max(1, sessions) {
            let login = try await harness.send("POST", "/auth/login", json: ["email": email, "password": "correct horse battery"])
            tokens.append(try #require(login["access"] as? String))
        }
        return tokens
    }

    /// `/auth/me` until it is answered inline and, with the model on, from memory: what a write
    /// must now get past.
    func warm(_ harness: Harness, _ token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(await harness.app.handle(me(token)).status == 200, sourceLocation: sourceLocation)
        let hits = harness.store.readModelCounts?.hits
        // A lookup while the writer is busy (mail delivery) reads instead; the next one hits.
        for _ in 0..<3 {
            #expect(try #require(harness.app.answeredAtOnce(me(token)), sourceLocation: sourceLocation).status == 200, sourceLocation: sourceLocation)
            if harness.store.readModelCounts?.hits != hits { break }
        }
        if let hits {
            #expect(try #require(harness.store.readModelCounts).hits > hits, "answered from the model", sourceLocation: sourceLocation)
        }
    }

    /// `/auth/me` inline and on the ordinary path (in both orders): the same reply, which is returned.
    func next(_ harness: Harness, _ token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Reply {
        let ordinaryFirst = Reply(response: await harness.app.handle(me(token)))
        let inline = Reply(response: try #require(harness.app.answeredAtOnce(me(token)), "inline", sourceLocation: sourceLocation))
        let ordinary = Reply(response: await harness.app.handle(me(token)))
        #expect(inline.status == ordinary.status && ordinaryFirst.status == ordinary.status, sourceLocation: sourceLocation)
        #expect(inline.text == ordinary.text && ordinaryFirst.text == ordinary.text, sourceLocation: sourceLocation)
        return inline
    }

    /// `next` right after the write, inline first: the very first request after it, on the inline path.
    func inlineFirst(_ harness: Harness, _ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Reply {
        Reply(response: try #require(harness.app.answeredAtOnce(me(token)), "inline", sourceLocation: sourceLocation))
    }

    @Test("logout ends the session for the next /auth/me", arguments: modes)
    func logout(model: Bool) async throws {
        let harness = try await harness(model: model)
        let token = try await account(harness)[0]
        try await warm(harness, token)
        #expect(try await harness.send("POST", "/auth/logout", token: token).status == 204)
        #expect(try inlineFirst(harness, token).code == "session_revoked")
        #expect(try await next(harness, token).code == "session_revoked")
    }

    @Test("logout of every session, and of the others", arguments: modes)
    func logoutAllAndOthers(model: Bool) async throws {
        let harness = try await harness(model: model)
        let tokens = try await account(harness, sessions: 3)
        for token in tokens { try await warm(harness, token) }
        #expect(try await harness.send("POST", "/auth/logout?scope=others", token: tokens[0]).status == 204)
        #expect(try inlineFirst(harness, tokens[1]).code == "session_revoked")
        #expect(try await next(harness, tokens[2]).code == "session_revoked")
        #expect(try await next(harness, tokens[0]).status == 200)
        #expect(try await harness.send("POST", "/auth/logout?scope=global", token: tokens[0]).status == 204)
        #expect(try await next(harness, tokens[0]).code == "session_revoked")
    }

    @Test("a session revoked from the sessions list", arguments: modes)
    func revokedFromList(model: Bool) async throws {
        let harness = try await harness(model: model)
        let tokens = try await account(harness, sessions: 2)
        for token in tokens { try await warm(harness, token) }
        let list = try await harness.send("GET", "/auth/sessions", token: tokens[0])
        let sessions = try #require(list["sessions"] as? [[String: Any]])
        let other = try #require(sessions.first { $0["current"] as? Bool == false }?["id"] as? String)
        #expect(try await harness.send("DELETE", "/auth/sessions/\(other)", token: tokens[0]).status == 204)
        #expect(try inlineFirst(harness, tokens[1]).code == "session_revoked")
        #expect(try await next(harness, tokens[1]).code == "session_revoked")
        #expect(try await next(harness, tokens[0]).status == 200)
    }

    @Test("a password change ends the other sessions", arguments: modes)
    func passwordChange(model: Bool) async throws {
        let harness = try await harness(model: model)
        let tokens = try await account(harness, sessions: 2)
        for token in tokens { try await warm(harness, token) }
        let changed = try await harness.send(
            "POST", "/auth/password/change", json: ["current_password": "correct horse battery", "new_password": "another long pass phrase"],
            token: tokens[0])
        #expect(changed.status == 204)
        #expect(try inlineFirst(harness, tokens[1]).code == "session_revoked")
        #expect(try await next(harness, tokens[1]).code == "session_revoked")
        #expect(try await next(harness, tokens[0]).status == 200)
    }

    @Test("a password reset ends every session", arguments: modes)
    func passwordReset(model: Bool) async throws {
        let harness = try await harness(model: model)
        let token = try await account(harness)[0]
        try await warm(harness, token)
        harness.clock.advance(61)  // one message a minute per address: the sign-up code went out just now
        #expect(try await harness.send("POST", "/auth/password/reset", json: ["email": "minsu@example.com"]).status == 202)
        let code = try #require(try await harness.latestCode(to: "minsu@example.com"))
        let confirmed = try await harness.send(
            "POST", "/auth/password/reset/confirm", json: ["email": "minsu@example.com", "code": code, "new_password": "another long pass phrase"])
        #expect(confirmed.status == 204)
        #expect(try inlineFirst(harness, token).code == "session_revoked")
        #expect(try await next(harness, token).code == "session_revoked")
    }

    @Test("a profile change", arguments: modes)
    func profileChange(model: Bool) async throws {
        let harness = try await harness(model: model)
        let token = try await account(harness)[0]
        try await warm(harness, token)
        #expect(try await harness.send("PATCH", "/auth/me", json: ["username": "새이름", "mbti": "intj"], token: token).status == 200)
        let inline = try inlineFirst(harness, token)
        #expect(inline["username"] as? String == "새이름")
        #expect(inline["mbti"] as? String == "INTJ")
        #expect(try await next(harness, token)["mbti"] as? String == "INTJ")
    }

    @Test("the address proven: email_verified", arguments: modes)
    func emailVerification(model: Bool) async throws {
        let harness = try await harness(model: model)
        let token = try await account(harness)[0]
        // An account from before verification was required: unverified, written through the store.
        try await harness.store.write { tx in
            var user = try #require(try tx.user(emailKey: "minsu@example.com"))
            user.emailVerified = false
            try tx.updateUser(user)
        }
        try await warm(harness, token)
        #expect(try await next(harness, token)["email_verified"] as? Bool == false)
        harness.clock.advance(61)
        #expect(try await harness.send("POST", "/auth/email/code", json: ["email": "minsu@example.com", "purpose": "verify"]).status == 202)
        let code = try #require(try await harness.latestCode(to: "minsu@example.com"))
        #expect(try await harness.send("POST", "/auth/email/verify", json: ["email": "minsu@example.com", "code": code]).status == 200)
        #expect(try inlineFirst(harness, token)["email_verified"] as? Bool == true)
        #expect(try await next(harness, token)["email_verified"] as? Bool == true)
    }

    /// The `mfa` member as `/auth/me` shows it.
    func mfa(_ reply: Reply) -> (totp: Bool?, left: Int?) {
        let member = reply["mfa"] as? [String: Any]
        return (member?["totp"] as? Bool, member?["recovery_codes_left"] as? Int)
    }

    @Test("second factor on, a recovery code spent, codes replaced, factor off", arguments: modes)
    func secondFactor(model: Bool) async throws {
        let harness = try await harness(model: model)
        let token = try await account(harness)[0]
        try await warm(harness, token)
        let enrolment = try await harness.send("POST", "/auth/mfa/totp", json: ["password": "correct horse battery"], token: token)
        #expect(enrolment.status == 200)
        let encoded = try #require(enrolment["secret"] as? String)
        let secret = try #require(TOTPGenerator.base32Decode(encoded))
        #expect(mfa(try inlineFirst(harness, token)).totp == false, "enrolling alone changes nothing shown")
        let confirmed = try await harness.send(
            "POST", "/auth/mfa/totp/confirm", json: ["code": TOTPGenerator.code(secret: secret, at: harness.clock.now)], token: token)
        #expect(confirmed.status == 200)
        let recovery = try #require(confirmed["recovery_codes"] as? [String])
        var shown = mfa(try inlineFirst(harness, token))
        #expect(shown.totp == true && shown.left == recovery.count)
        #expect(mfa(try await next(harness, token)).left == recovery.count)

        // A recovery code spent by another login of the same account.
        let challenge = try await harness.send("POST", "/auth/login", json: ["email": "minsu@example.com", "password": "correct horse battery"])
        let mfaToken = try #require(challenge["mfa_token"] as? String)
        #expect(try await harness.send("POST", "/auth/mfa/verify", json: ["mfa_token": mfaToken, "recovery_code": recovery[0]]).status == 200)
        shown = mfa(try inlineFirst(harness, token))
        #expect(shown.left == recovery.count - 1)
        #expect(mfa(try await next(harness, token)).left == recovery.count - 1)

        harness.clock.advance(30)
        let replaced = try await harness.send(
            "POST", "/auth/mfa/recovery-codes",
            json: ["password": "correct horse battery", "code": TOTPGenerator.code(secret: secret, at: harness.clock.now)], token: token)
        #expect(replaced.status == 200)
        #expect(mfa(try inlineFirst(harness, token)).left == recovery.count)

        harness.clock.advance(30)
        let off = try await harness.send(
            "DELETE", "/auth/mfa/totp", json: ["password": "correct horse battery", "code": TOTPGenerator.code(secret: secret, at: harness.clock.now)],
            token: token)
        #expect(off.status == 204)
        shown = mfa(try inlineFirst(harness, token))
        #expect(shown.totp == false && shown.left == 0)
        #expect(mfa(try await next(harness, token)).totp == false)
    }

    @Test("the account deleted", arguments: modes)
    func deletion(model: Bool) async throws {
        let harness = try await harness(model: model)
        let tokens = try await account(harness, sessions: 2)
        for token in tokens { try await warm(harness, token) }
        #expect(try await harness.send("DELETE", "/auth/me", json: ["password": "correct horse battery"], token: tokens[0]).status == 204)
        #expect(try inlineFirst(harness, tokens[1]).code == "session_revoked")
        #expect(try await next(harness, tokens[0]).code == "session_revoked")
    }

    @Test("a session past its idle or absolute end, by the clock", arguments: modes)
    func expiry(model: Bool) async throws {
        let harness = try await harness(model: model) { $0.sessionIdleTTL = 60; $0.sessionMaxTTL = 100; $0.accessTTL = 900 }
        let token = try await account(harness)[0]
        try await warm(harness, token)
        harness.clock.advance(59)
        #expect(try inlineFirst(harness, token).status == 200)
        harness.clock.advance(1)
        #expect(try inlineFirst(harness, token).code == "token_expired", "idle for 60 s")
        #expect(try await next(harness, token).code == "token_expired")
    }

    @Test("a refresh keeps the session alive past its old idle end; reuse revokes it", arguments: modes)
    func refreshTouchesAndReuseRevokes(model: Bool) async throws {
        let harness = try await harness(model: model) { $0.sessionIdleTTL = 60; $0.accessTTL = 900; $0.refreshGrace = 0 }
        let login = try await harness.signedIn(.minsu)
        let (token, refresh) = (login.access, login.refresh)
        try await warm(harness, token)
        harness.clock.advance(50)
        let rotated = try await harness.send("POST", "/auth/refresh", json: ["refresh": refresh])
        #expect(rotated.status == 200)
        harness.clock.advance(20)
        // Idle since the login for 70 s, but refreshed 20 s ago: the old access token's session lives.
        #expect(try inlineFirst(harness, token).status == 200)
        #expect(try await next(harness, token).status == 200)
        #expect(try await harness.send("POST", "/auth/refresh", json: ["refresh": refresh]).code == "refresh_token_reused")
        #expect(try inlineFirst(harness, token).code == "session_revoked")
        #expect(try await next(harness, token).code == "session_revoked")
    }

    @Test("a write through the store itself (in this process) is seen too")
    func writeThroughTheStore() async throws {
        let harness = try await harness(model: true)
        let token = try await account(harness)[0]
        try await warm(harness, token)
        try await harness.store.write { tx in
            var user = try #require(try tx.user(emailKey: "minsu@example.com"))
            user.mbti = "ISTP"
            try tx.updateUser(user)
        }
        #expect(try inlineFirst(harness, token)["mbti"] as? String == "ISTP")
    }

    @Test("another store on the same file (another connection, as another process would be) is seen")
    func writeOfAnotherConnection() async throws {
        let harness = try await harness(model: true)
        let token = try await account(harness)[0]
        try await warm(harness, token)
        let other = try SQLiteAccountStore(path: harness.folder.appendingPathComponent("account.sqlite").path)
        try await other.write { tx in
            let user = try #require(try tx.user(emailKey: "minsu@example.com"))
            try tx.revokeSessions(userID: user.id, except: nil, at: Date())
        }
        await other.close()
        let clears = try #require(harness.store.readModelCounts?.clears)
        #expect(try inlineFirst(harness, token).code == "session_revoked")
        #expect(try await next(harness, token).code == "session_revoked")
        #expect(try #require(harness.store.readModelCounts).clears > clears, "the whole model was dropped")
    }

    @Test("/metrics shows the model's counters; --read-model off has none")
    func metrics() async throws {
        let harness = try await harness(model: true)
        let token = try await account(harness)[0]
        try await warm(harness, token)
        let text = try await harness.send("GET", "/metrics").text
        for line in ["read_model_lookups_total{result=\"hit\"} ", "read_model_lookups_total{result=\"miss\"} ", "read_model_invalidations_total ",
                     "read_model_clears_total ", "read_model_evictions_total ", "read_model_entries 1", "read_model_capacity 10000"] {
            #expect(text.contains(line), "\(line)")
        }
        let off = try await self.harness(model: false)
        #expect(!(try await off.send("GET", "/metrics").text.contains("read_model")))
        #expect(off.store.readModelCounts == nil)
    }
}
