import AccountAPI
import Foundation
import Testing
import TestSupport

/// Login, refresh and logout.
enum SessionScenarios {
    static let all = Scenario.set("Login, refresh and logout", [
        ("login by username, email or login, any letter case; unknown and wrong look the same", loginIdentifiers),
        ("refresh rotates; a repeat within the grace window gets the same pair; later reuse revokes the session", rotationAndReuse),
        ("refresh rotates generation after generation; after logout no generation refreshes", rotationGenerations),
        ("with no grace window any second use of a refresh token is reuse and ends the session", reuseWithoutGrace),
        ("an unknown refresh token is token_invalid", unknownRefresh),
        ("logout scopes: local ends this session, others the rest, global all; other accounts untouched", logoutScopes),
        ("access tokens: expiry, tampering, scheme case, query tokens ignored", accessTokenChecks),
        ("a session ends after its idle lifetime", idleExpiry),
        ("a session ends after ninety days however often it is used", absoluteExpiry),
        ("the access token is an EdDSA at+jwt whose kid is in the JWKS, with the claims of docs/API.md", tokenShape),
        ("PATCH /auth/me changes nickname and type, refuses a taken or invalid one", updateProfile),
    ])

    static func loginIdentifiers(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.registered(TestAccount(username: "Sora", email: "sora@example.com", password: "correct horse battery"))
        for body in [
            ["username": "sora", "password": "correct horse battery"],
            ["email": "SORA@example.com", "password": "correct horse battery"],
            ["login": "Sora", "password": "correct horse battery"],
            ["login": "sora@EXAMPLE.com", "password": "correct horse battery"],
        ] {
            #expect(try await server.send("POST", "/auth/login", json: body).status == 200, "\(body.keys)")
        }
        let unknown = try await server.send("POST", "/auth/login", json: ["username": "nobody", "password": "correct horse battery"])
        let wrong = try await server.send("POST", "/auth/login", json: ["username": "sora", "password": "wrong horse battery"])
        #expect(unknown.status == 401)
        #expect(unknown.code == "invalid_credentials")
        #expect(unknown.text == wrong.text)
        #expect(unknown.header("WWW-Authenticate") == "Bearer error=\"invalid_token\"")
        let two = try await server.send("POST", "/auth/login", json: ["username": "sora", "email": "sora@example.com", "password": "x"])
        #expect(two.status == 400)
        await server.stop()
    }

    static func rotationAndReuse(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let login = try await server.signedIn(.minsu)
        server.clock.advance(30)
        let first = try await server.refresh(login.refresh)
        #expect(first.status == 200)
        let rotated = try first.decode(TokenPair.self)
        #expect(rotated.refresh != login.refresh)
        #expect(rotated.access != login.access)

        server.clock.advance(5)
        let repeated = try await server.refresh(login.refresh)
        #expect(repeated.status == 200)
        let repeatPair = try repeated.decode(TokenPair.self)
        #expect(repeatPair.refresh == rotated.refresh)
        #expect(repeatPair.access == rotated.access)

        server.clock.advance(6)
        let reused = try await server.refresh(login.refresh)
        #expect(reused.status == 401)
        #expect(reused.code == "refresh_token_reused")
        let successor = try await server.refresh(rotated.refresh)
        #expect(successor.code == "session_revoked")
        let me = try await server.me(rotated.access)
        #expect(me.status == 401)
        #expect(me.code == "session_revoked")
        var outcomes: [Int] = []
        for outcome in ["rotated", "repeated", "reused", "revoked"] {
            outcomes.append(try await server.metric("account_refreshes_total{outcome=\"\(outcome)\"}"))
        }
        #expect(outcomes == [1, 1, 1, 1])
        await server.stop()
    }

    static func rotationGenerations(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let (_, first) = try await server.verifiedAccount("rotate")

        let second = try await server.refresh(first.refresh)
        #expect(second.status == 200, "\(second.text)")
        let pair2 = try second.decode(TokenPair.self)
        #expect(pair2.refresh != first.refresh && pair2.access != first.access)
        #expect(pair2.user == first.user)

        // A retry after a lost reply (well within the 10 s grace) gets the same new pair back.
        let repeated = try await server.refresh(first.refresh)
        #expect(repeated.status == 200, "\(repeated.text)")
        let pair2again = try repeated.decode(TokenPair.self)
        #expect(pair2again.refresh == pair2.refresh)
        #expect(pair2again.access == pair2.access)

        let third = try await server.refresh(pair2.refresh)
        #expect(third.status == 200, "\(third.text)")
        let pair3 = try third.decode(TokenPair.self)
        #expect(Set([first.refresh, pair2.refresh, pair3.refresh]).count == 3)
        #expect(try await server.me(pair3.access).status == 200)

        // After logout no token of the session refreshes any more, whatever its generation.
        let logout = try await server.send("POST", "/auth/logout", token: pair3.access)
        #expect(logout.status == 204)
        for token in [pair3.refresh, pair2.refresh, first.refresh] {
            let refused = try await server.refresh(token)
            #expect(refused.status == 401 && refused.problem?.code == .sessionRevoked, "\(refused.text)")
            #expect(refused.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
        }
        let unknown = try await server.refresh(String(repeating: "A", count: 43))
        #expect(unknown.status == 401 && unknown.problem?.code == .tokenInvalid)
        await server.stop()
    }

    static func reuseWithoutGrace(_ kind: any TestServerKind) async throws {
        let server = try await kind.start(["--refresh-grace", "0"])
        let (_, first) = try await server.verifiedAccount("reuse")
        let rotated = try await server.refresh(first.refresh).decode(TokenPair.self)
        server.clock.advance(1)
        let reused = try await server.refresh(first.refresh)
        #expect(reused.status == 401 && reused.problem?.code == .refreshTokenReused, "\(reused.text)")
        let successor = try await server.refresh(rotated.refresh)
        #expect(successor.problem?.code == .sessionRevoked, "the thief's and the owner's tokens both die")
        #expect(try await server.me(rotated.access).problem?.code == .sessionRevoked)
        await server.stop()
    }

    static func unknownRefresh(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let reply = try await server.send("POST", "/auth/refresh", json: ["refresh": "made-up"])
        #expect(reply.status == 401)
        #expect(reply.code == "token_invalid")
        await server.stop()
    }

    static func logoutScopes(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let hana = TestAccount(username: "hana", email: "hana@example.com", password: "correct horse battery")
        try await server.registered(hana)
        let stranger = try await server.signedIn(TestAccount(username: "juno", email: "juno@example.com", password: "correct horse battery"))
        func login() async throws -> TokenPair { try await server.logIn(hana) }
        func alive(_ pair: TokenPair) async throws -> Bool { try await server.me(pair.access).status == 200 }
        func revoked(_ pair: TokenPair) async throws -> Bool {
            let reply = try await server.me(pair.access)
            return reply.status == 401 && reply.code == "session_revoked"
        }
        let (a, b, c) = (try await login(), try await login(), try await login())

        let bad = try await server.send("POST", "/auth/logout?scope=everything", token: a.access)
        #expect(bad.status == 400 && bad.problem?.code == .invalidRequest)
        #expect(try await alive(a))

        #expect(try await server.send("POST", "/auth/logout", token: a.access).status == 204)
        #expect(try await revoked(a))
        #expect(try await alive(b))
        let local = try await login()
        #expect(try await server.send("POST", "/auth/logout?scope=local", token: local.access).status == 204)
        #expect(try await revoked(local))
        #expect(try await alive(b))
        #expect(try await alive(c))

        #expect(try await server.send("POST", "/auth/logout?scope=others", token: b.access).status == 204)
        #expect(try await alive(b))
        #expect(try await revoked(c))
        #expect(try await server.refresh(c.refresh).code == "session_revoked")

        let (d, e) = (try await login(), try await login())
        #expect(try await server.send("POST", "/auth/logout?scope=global", token: d.access).status == 204)
        for pair in [b, d, e] { #expect(try await revoked(pair)) }
        #expect(try await server.refresh(e.refresh).code == "session_revoked")

        // Another account's session is untouched by all of it.
        #expect(try await alive(stranger))
        // A revoked session cannot log out again.
        #expect(try await server.send("POST", "/auth/logout", token: d.access).status == 401)
        await server.stop()
    }

    static func accessTokenChecks(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let pair = try await server.signedIn(.minsu)
        #expect(try await server.send("GET", "/auth/me", headers: ["Authorization": "bearer \(pair.access)"]).status == 200)
        let missing = try await server.send("GET", "/auth/me?access_token=\(pair.access)")
        #expect(missing.status == 401)
        #expect(missing.code == "token_invalid")

        var parts = pair.access.split(separator: ".").map(String.init)
        let claims = try #require(Base64URL.decode(parts[1]))
        var object = try #require(try JSONSerialization.jsonObject(with: Data(claims)) as? [String: Any])
        object["sub"] = UUID().uuidString.lowercased()
        parts[1] = Base64URL.encode(try JSONSerialization.data(withJSONObject: object))
        let forged = try await server.me(parts.joined(separator: "."))
        #expect(forged.code == "token_invalid")
        #expect(try await server.me("abc.def.ghi").code == "token_invalid")

        server.clock.advance(900 + 61)
        let expired = try await server.me(pair.access)
        #expect(expired.status == 401)
        #expect(expired.code == "token_expired")
        // The session is still live: the refresh token gets a new pair.
        #expect(try await server.refresh(pair.refresh).status == 200)
        await server.stop()
    }

    static func idleExpiry(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let pair = try await server.signedIn(.minsu)
        #expect(pair.refreshExpiresIn == 30 * 24 * 3600)
        server.clock.advance(30 * 24 * 3600 + 1)
        let reply = try await server.refresh(pair.refresh)
        #expect(reply.status == 401)
        #expect(reply.code == "token_expired")
        await server.stop()
    }

    static func absoluteExpiry(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        var (_, pair) = try await server.verifiedAccount("ninety")
        for days in [29, 58, 87] {
            server.clock.set(ahead: TimeInterval(days * 24 * 3600))
            let refreshed = try await server.refresh(pair.refresh)
            #expect(refreshed.status == 200, "day \(days)")
            pair = try refreshed.decode(TokenPair.self)
        }
        #expect(pair.refreshExpiresIn <= 3 * 24 * 3600 + 60, "the absolute end shows in refresh_expires_in")
        server.clock.set(ahead: TimeInterval(90 * 24 * 3600 + 60))
        #expect(try await server.refresh(pair.refresh).problem?.code == .tokenExpired)
        await server.stop()
    }

    static func tokenShape(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let pair = try await server.signedIn(.minsu)
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
        let jwks = try await server.send("GET", "/.well-known/jwks.json").decode(JWKSet.self)
        #expect(jwks.keys.contains { $0.kid == header["kid"] as? String && $0.crv == "Ed25519" })
        await server.stop()
    }

    static func updateProfile(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.registered(TestAccount(username: "taken", email: "t@example.com", password: "correct horse battery"))
        let pair = try await server.signedIn(TestAccount(username: "yuna", email: "yuna@example.com", password: "correct horse battery"))
        let changed = try await server.send("PATCH", "/auth/me", json: ["username": "유나", "mbti": "istp"], token: pair.access)
        #expect(changed.status == 200)
        #expect(changed["username"] as? String == "유나")
        #expect(changed["mbti"] as? String == "ISTP")
        #expect(try await server.send("PATCH", "/auth/me", json: ["username": "TAKEN"], token: pair.access).status == 409)
        #expect(try await server.send("PATCH", "/auth/me", json: ["mbti": "XXXX"], token: pair.access).fieldCodes("mbti") == ["invalid_choice"])
        #expect(try await server.me(pair.access)["username"] as? String == "유나")
        await server.stop()
    }
}
