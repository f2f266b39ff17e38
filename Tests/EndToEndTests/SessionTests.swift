import AccountAPI
import Foundation
import TestSupport
import Testing

/// Refresh rotation and the three logout scopes over HTTP.
@Suite struct SessionTests {
    @Test func refreshRotatesAndARepeatWithinTheGraceGetsTheSamePair() async throws {
        let server = try await ServerProcess.start()
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
        let logout = try await server.client.send("POST", "/auth/logout", token: pair3.access)
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

    @Test func aReusedRefreshTokenRevokesTheWholeSession() async throws {
        // With no grace window, any second use of a refresh token is a reuse.
        let server = try await ServerProcess.start(["--refresh-grace", "0"])
        let (_, first) = try await server.verifiedAccount("reuse")
        let rotated = try await server.refresh(first.refresh).decode(TokenPair.self)
        try await Task.sleep(for: .milliseconds(20))
        let reused = try await server.refresh(first.refresh)
        #expect(reused.status == 401 && reused.problem?.code == .refreshTokenReused, "\(reused.text)")
        let successor = try await server.refresh(rotated.refresh)
        #expect(successor.problem?.code == .sessionRevoked, "the thief's and the owner's tokens both die")
        #expect(try await server.me(rotated.access).problem?.code == .sessionRevoked)
        await server.stop()
    }

    @Test func logoutScopesEndTheRightSessions() async throws {
        let server = try await ServerProcess.start()
        let (account, s1) = try await server.verifiedAccount("scopes")
        let s2 = try await server.logIn(account)
        let s3 = try await server.logIn(account)
        let (_, stranger) = try await server.verifiedAccount("stranger")

        func alive(_ pair: TokenPair) async throws -> Bool { try await server.me(pair.access).status == 200 }
        func revoked(_ pair: TokenPair) async throws -> Bool {
            let reply = try await server.me(pair.access)
            return reply.status == 401 && reply.problem?.code == .sessionRevoked
        }

        let bad = try await server.client.send("POST", "/auth/logout?scope=everything", token: s1.access)
        #expect(bad.status == 400 && bad.problem?.code == .invalidRequest)
        #expect(try await alive(s1))

        #expect(try await server.client.send("POST", "/auth/logout?scope=local", token: s1.access).status == 204)
        #expect(try await revoked(s1))
        #expect(try await alive(s2))
        #expect(try await alive(s3))

        #expect(try await server.client.send("POST", "/auth/logout?scope=others", token: s2.access).status == 204)
        #expect(try await alive(s2))
        #expect(try await revoked(s3))
        #expect(try await server.refresh(s3.refresh).problem?.code == .sessionRevoked)

        let s4 = try await server.logIn(account)
        let s5 = try await server.logIn(account)
        #expect(try await server.client.send("POST", "/auth/logout?scope=global", token: s4.access).status == 204)
        for pair in [s2, s4, s5] { #expect(try await revoked(pair)) }
        #expect(try await server.refresh(s5.refresh).problem?.code == .sessionRevoked)

        // Another account's session is untouched by all of it.
        #expect(try await alive(stranger))
        // A revoked session cannot log out again.
        #expect(try await server.client.send("POST", "/auth/logout", token: s4.access).status == 401)
        await server.stop()
    }
}
