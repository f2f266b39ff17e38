import AccountAPI
import Foundation
import Testing
@testable import AccountCore
@testable import AccountServer

@Suite("Login, refresh and logout")
struct SessionTests {
    @Test("login by username, email or login, any letter case; unknown and wrong look the same")
    func loginIdentifiers() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("Sora", email: "sora@example.com", password: "correct horse battery")
        for body in [
            ["username": "sora", "password": "correct horse battery"],
            ["email": "SORA@example.com", "password": "correct horse battery"],
            ["login": "Sora", "password": "correct horse battery"],
            ["login": "sora@EXAMPLE.com", "password": "correct horse battery"],
        ] {
            #expect(try await harness.send("POST", "/auth/login", json: body).status == 200, "\(body.keys)")
        }
        let unknown = try await harness.send("POST", "/auth/login", json: ["username": "nobody", "password": "correct horse battery"])
        let wrong = try await harness.send("POST", "/auth/login", json: ["username": "sora", "password": "wrong horse battery"])
        #expect(unknown.status == 401)
        #expect(unknown.code == "invalid_credentials")
        #expect(unknown.text == wrong.text)
        #expect(unknown.header("WWW-Authenticate") == "Bearer error=\"invalid_token\"")
        let two = try await harness.send("POST", "/auth/login", json: ["username": "sora", "email": "sora@example.com", "password": "x"])
        #expect(two.status == 400)
    }

    @Test("refresh rotates; a repeat within the grace window gets the same pair; later reuse revokes the session")
    func rotationAndReuse() async throws {
        let harness = try await Harness.make()
        let login = try await harness.signedInUser().decode(TokenPair.self)
        harness.clock.advance(30)
        let first = try await harness.send("POST", "/auth/refresh", json: ["refresh": login.refresh])
        #expect(first.status == 200)
        let rotated = try first.decode(TokenPair.self)
        #expect(rotated.refresh != login.refresh)
        #expect(rotated.access != login.access)

        harness.clock.advance(5)
        let repeated = try await harness.send("POST", "/auth/refresh", json: ["refresh": login.refresh])
        #expect(repeated.status == 200)
        let repeatPair = try repeated.decode(TokenPair.self)
        #expect(repeatPair.refresh == rotated.refresh)
        #expect(repeatPair.access == rotated.access)

        harness.clock.advance(6)
        let reused = try await harness.send("POST", "/auth/refresh", json: ["refresh": login.refresh])
        #expect(reused.status == 401)
        #expect(reused.code == "refresh_token_reused")
        let successor = try await harness.send("POST", "/auth/refresh", json: ["refresh": rotated.refresh])
        #expect(successor.code == "session_revoked")
        let me = try await harness.send("GET", "/auth/me", token: rotated.access)
        #expect(me.status == 401)
        #expect(me.code == "session_revoked")
        let metrics = harness.app.metrics
        let outcomes: [Int] = [metrics.refreshes(.rotated), metrics.refreshes(.repeated), metrics.refreshes(.reused), metrics.refreshes(.revoked)]
        #expect(outcomes == [1, 1, 1, 1])
    }

    @Test("an unknown refresh token is token_invalid")
    func unknownRefresh() async throws {
        let harness = try await Harness.make()
        let reply = try await harness.send("POST", "/auth/refresh", json: ["refresh": "made-up"])
        #expect(reply.status == 401)
        #expect(reply.code == "token_invalid")
    }

    @Test("logout scopes: local ends this session, others the rest, global all")
    func logoutScopes() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("hana", email: "hana@example.com", password: "correct horse battery")
        func login() async throws -> TokenPair {
            try await harness.send("POST", "/auth/login", json: ["username": "hana", "password": "correct horse battery"]).decode(TokenPair.self)
        }
        let (a, b, c) = (try await login(), try await login(), try await login())
        #expect(try await harness.send("POST", "/auth/logout", token: a.access).status == 204)
        #expect(try await harness.send("GET", "/auth/me", token: a.access).code == "session_revoked")
        #expect(try await harness.send("GET", "/auth/me", token: b.access).status == 200)

        #expect(try await harness.send("POST", "/auth/logout", token: b.access, query: ["scope": "others"]).status == 204)
        #expect(try await harness.send("GET", "/auth/me", token: b.access).status == 200)
        #expect(try await harness.send("GET", "/auth/me", token: c.access).code == "session_revoked")
        #expect(try await harness.send("POST", "/auth/refresh", json: ["refresh": c.refresh]).code == "session_revoked")

        let d = try await login()
        #expect(try await harness.send("POST", "/auth/logout", token: d.access, query: ["scope": "global"]).status == 204)
        #expect(try await harness.send("GET", "/auth/me", token: b.access).code == "session_revoked")
        #expect(try await harness.send("GET", "/auth/me", token: d.access).code == "session_revoked")
    }

    @Test("access tokens: expiry, tampering, scheme case, query tokens ignored")
    func accessTokenChecks() async throws {
        let harness = try await Harness.make()
        let pair = try await harness.signedInUser().decode(TokenPair.self)
        #expect(try await harness.send("GET", "/auth/me", headers: ["Authorization": "bearer \(pair.access)"]).status == 200)
        let missing = try await harness.send("GET", "/auth/me", query: ["access_token": pair.access])
        #expect(missing.status == 401)
        #expect(missing.code == "token_invalid")

        var parts = pair.access.split(separator: ".").map(String.init)
        let claims = try #require(Base64URL.decode(parts[1]))
        var object = try #require(try JSONSerialization.jsonObject(with: Data(claims)) as? [String: Any])
        object["sub"] = UUID().uuidString.lowercased()
        parts[1] = Base64URL.encode(try JSONSerialization.data(withJSONObject: object))
        let forged = try await harness.send("GET", "/auth/me", token: parts.joined(separator: "."))
        #expect(forged.code == "token_invalid")
        #expect(try await harness.send("GET", "/auth/me", token: "abc.def.ghi").code == "token_invalid")

        harness.clock.advance(900 + 61)
        let expired = try await harness.send("GET", "/auth/me", token: pair.access)
        #expect(expired.status == 401)
        #expect(expired.code == "token_expired")
        // The session is still live: the refresh token gets a new pair.
        #expect(try await harness.send("POST", "/auth/refresh", json: ["refresh": pair.refresh]).status == 200)
    }

    @Test("a session ends after its idle lifetime")
    func idleExpiry() async throws {
        let harness = try await Harness.make()
        let pair = try await harness.signedInUser().decode(TokenPair.self)
        #expect(pair.refreshExpiresIn == 30 * 24 * 3600)
        harness.clock.advance(30 * 24 * 3600 + 1)
        let reply = try await harness.send("POST", "/auth/refresh", json: ["refresh": pair.refresh])
        #expect(reply.status == 401)
        #expect(reply.code == "token_expired")
    }

    @Test("the access token is an EdDSA at+jwt whose kid is in the JWKS, with the claims of docs/API.md")
    func tokenShape() async throws {
        let harness = try await Harness.make()
        let pair = try await harness.signedInUser().decode(TokenPair.self)
        let parts = pair.access.split(separator: ".")
        let headerBytes = try #require(Base64URL.decode(parts[0]))
        let claimBytes = try #require(Base64URL.decode(parts[1]))
        let header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any])
        #expect(header["alg"] as? String == "EdDSA")
        #expect(header["typ"] as? String == "at+jwt")
        #expect(Set(claims.keys) == ["iss", "aud", "sub", "sid", "iat", "exp", "jti", "amr"])
        #expect(claims["amr"] as? [String] == ["pwd"], "a password alone")
        #expect(claims["iss"] as? String == "http://localhost:8000")
        #expect(claims["sub"] as? String == pair.user.id.uuidString.lowercased())
        let jwks = try await harness.send("GET", "/.well-known/jwks.json").decode(JWKSet.self)
        #expect(jwks.keys.contains { $0.kid == header["kid"] as? String && $0.crv == "Ed25519" })
    }

    @Test("PATCH /auth/me changes nickname and type, refuses a taken or invalid one")
    func updateProfile() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("taken", email: "t@example.com")
        let pair = try await harness.signedInUser("yuna", email: "yuna@example.com").decode(TokenPair.self)
        let changed = try await harness.send("PATCH", "/auth/me", json: ["username": "유나", "mbti": "istp"], token: pair.access)
        #expect(changed.status == 200)
        #expect(changed["username"] as? String == "유나")
        #expect(changed["mbti"] as? String == "ISTP")
        #expect(try await harness.send("PATCH", "/auth/me", json: ["username": "TAKEN"], token: pair.access).status == 409)
        #expect(try await harness.send("PATCH", "/auth/me", json: ["mbti": "XXXX"], token: pair.access).fieldCodes("mbti") == ["invalid_choice"])
        #expect(try await harness.send("GET", "/auth/me", token: pair.access)["username"] as? String == "유나")
    }

    @Test("a hash made with older parameters is replaced at login")
    func rehashOnLogin() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("rehash", email: "rehash@example.com", password: "correct horse battery")
        // Same database, new parameters: log in through an app configured with them.
        var configuration = ServerConfiguration()
        configuration.hashMemory = 64 * 1024
        configuration.hashPasses = 2
        configuration.accessLog = false
        let transport = try Mailer.FileMailTransport(directory: harness.mailFolder, sender: configuration.mailFrom)
        let upgraded = try await AccountApp.make(configuration: configuration, store: harness.store, transport: transport, clock: harness.clock.serverClock)
        let before = try #require(try await harness.store.read { try $0.user(usernameKey: "rehash") }).passwordHash
        let login = await upgraded.handle(.init(method: "POST", path: "/auth/login", headers: ["Content-Type": "application/json"], body: Array(#"{"username":"rehash","password":"correct horse battery"}"#.utf8)))
        #expect(login.status == 200)
        let after = try #require(try await harness.store.read { try $0.user(usernameKey: "rehash") }).passwordHash
        #expect(before.contains("t=1"))
        #expect(after.contains("t=2"))
    }
}

import Mailer
import TestSupport

@Suite("Login back-off")
struct LoginBackoffTests {
    @discardableResult
    func login(_ harness: Harness, _ body: [String: String]) async throws -> Reply {
        try await harness.send("POST", "/auth/login", json: body)
    }

    @Test("five failures by any identifier back off the account; waiting doubles; a success clears it")
    func backoff() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("gyu", email: "gyu@example.com", password: "correct horse battery")
        let wrongs: [[String: String]] = [
            ["username": "gyu", "password": "wrong 1 wrong"], ["username": "GYU", "password": "wrong 2 wrong"],
            ["email": "gyu@example.com", "password": "wrong 3 wrong"], ["login": "Gyu@Example.com", "password": "wrong 4 wrong"],
            ["login": "gyu", "password": "wrong 5 wrong"],
        ]
        for body in wrongs { #expect(try await login(harness, body).code == "invalid_credentials") }
        let refused = try await login(harness, ["username": "gyu", "password": "correct horse battery"])
        #expect(refused.status == 429)
        #expect(refused.code == "rate_limited")
        #expect(refused.header("Retry-After") == "30")

        harness.clock.advance(20)
        #expect(try await login(harness, ["username": "gyu", "password": "wrong again"]).header("Retry-After") == "10", "tries during a back-off do not extend it")
        harness.clock.advance(11)
        #expect(try await login(harness, ["username": "gyu", "password": "wrong 6 wrong"]).code == "invalid_credentials")
        #expect(try await login(harness, ["username": "gyu", "password": "correct horse battery"]).header("Retry-After") == "60", "the next failure doubles the back-off")
        harness.clock.advance(61)
        #expect(try await login(harness, ["username": "gyu", "password": "correct horse battery"]).status == 200)
        for index in 0..<4 { #expect(try await login(harness, ["username": "gyu", "password": "wrong \(index) again"]).status == 401, "cleared by the success") }
    }

    @Test("unknown accounts back off exactly like known ones")
    func unknownAccounts() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("real", email: "real@example.com", password: "correct horse battery")
        var known: [String] = []
        var unknown: [String] = []
        for index in 0..<7 {
            known.append(try await login(harness, ["email": "real@example.com", "password": "wrong \(index) pw"]).text)
            unknown.append(try await login(harness, ["email": "ghost@example.com", "password": "wrong \(index) pw"]).text)
        }
        #expect(known == unknown)
    }

    @Test("100 parallel wrong guesses: at most the limit get a password check")
    func parallelGuesses() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("target", email: "target@example.com", password: "correct horse battery")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<100 {
                group.addTask { try await harness.send("POST", "/auth/login", json: ["username": "target", "password": "guess \(index) guess"]).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 401 }.count == 5)
        #expect(statuses.filter { $0 == 429 }.count == 95)
    }

    @Test("a password reset clears the back-off")
    func resetClears() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("reset", email: "reset@example.com", password: "correct horse battery")
        // One message a minute per address: the sign-up's code went out just now.
        harness.clock.advance(61)
        for index in 0..<5 { try await login(harness, ["username": "reset", "password": "wrong \(index) pw"]) }
        #expect(try await login(harness, ["username": "reset", "password": "correct horse battery"]).status == 429)
        try await harness.send("POST", "/auth/password/reset", json: ["email": "reset@example.com"])
        let code = try #require(try await harness.latestCode(to: "reset@example.com"))
        #expect(try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "reset@example.com", "code": code, "new_password": "a fresh new secret"]).status == 204)
        #expect(try await login(harness, ["username": "reset", "password": "a fresh new secret"]).status == 200)
    }
}
