import AccountAPI
import Foundation
import Testing
import TestSupport

/// The grace repeat of a refresh goes only to the client that used the token first: the same
/// User-Agent and the same address as the server counts it. From anywhere else within the window
/// it is reuse, and the session ends (RFC 9700 §4.14.2).
///
/// The servers trust the loopback peer as a proxy, so a client's address is the `X-Forwarded-For`
/// it sends, the same in process and over a socket.
enum RefreshGraceScenarios {
    static let all = Scenario.set("Refresh grace bound to the first client", [
        ("the same client within the window gets the same pair, again and again", sameClientRepeats),
        ("another address or another User-Agent within the window is reuse: the session ends", otherClient),
        ("the window still ends: the first client too is refused after it", windowStillEnds),
    ])

    static let options = ["--trusted-proxy", "127.0.0.1"]

    /// A client as the server tells one from another.
    struct Client {
        let userAgent: String
        let address: String
    }

    /// The client that uses the token first.
    static let app = Client(userAgent: "App/1.0", address: "203.0.113.1")

    /// `POST /auth/refresh` from `client`.
    static func refresh(_ server: any TestServer, _ token: String, from client: Client) async throws -> Reply {
        try await server.refresh(token, headers: ["User-Agent": client.userAgent, "X-Forwarded-For": client.address])
    }

    /// A fresh account's session and its first rotation by ``app``, 30 s after the login; the
    /// clock then moves 2 s on, well within the window.
    static func firstUse(_ server: any TestServer, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (login: TokenPair, rotated: TokenPair) {
        let (_, login) = try await server.verifiedAccount("grace", sourceLocation: sourceLocation)
        server.clock.advance(30)
        let first = try await refresh(server, login.refresh, from: app)
        try #require(first.status == 200, "first rotation: \(first.text)", sourceLocation: sourceLocation)
        server.clock.advance(2)
        return (login, try first.decode(TokenPair.self))
    }

    /// `reply` refuses the token as reused, and the session it rotated to is over.
    static func expectReused(_ server: any TestServer, _ reply: Reply, rotated: TokenPair, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(reply.status == 401 && reply.code == "refresh_token_reused", "\(what): \(reply.text)", sourceLocation: sourceLocation)
        #expect(try await server.refresh(rotated.refresh).code == "session_revoked", "\(what)", sourceLocation: sourceLocation)
        #expect(try await server.me(rotated.access).code == "session_revoked", "\(what)", sourceLocation: sourceLocation)
    }

    /// `account_refreshes_total{outcome=…}` of `server`.
    static func refreshes(_ server: any TestServer, _ outcome: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        try await server.metric("account_refreshes_total{outcome=\"\(outcome)\"}", sourceLocation: sourceLocation)
    }

    static func sameClientRepeats(_ kind: any TestServerKind) async throws {
        let server = try await kind.start(options)
        let (login, rotated) = try await firstUse(server)
        for _ in 0..<3 {
            let again = try await refresh(server, login.refresh, from: app)
            #expect(again.status == 200, "\(again.text)")
            let pair = try again.decode(TokenPair.self)
            #expect(pair.refresh == rotated.refresh)
            #expect(pair.access == rotated.access)
        }
        #expect(try await refreshes(server, "repeated") == 3)
        #expect(try await refreshes(server, "reused") == 0)
        #expect(try await server.me(rotated.access).status == 200)
        await server.stop()
    }

    static func otherClient(_ kind: any TestServerKind) async throws {
        let server = try await kind.start(options)
        let others = [
            Client(userAgent: app.userAgent, address: "203.0.113.2"), Client(userAgent: app.userAgent, address: "203.0.113.11"),
            Client(userAgent: "App/1.1", address: app.address), Client(userAgent: "app/1.0", address: app.address),
            Client(userAgent: "Mozilla/5.0", address: app.address),
        ]
        for other in others {
            let (login, rotated) = try await firstUse(server)
            let reply = try await refresh(server, login.refresh, from: other)
            try await expectReused(server, reply, rotated: rotated, "\(other.userAgent) from \(other.address)")
        }
        #expect(try await refreshes(server, "reused") == others.count)
        #expect(try await refreshes(server, "repeated") == 0)
        await server.stop()
    }

    static func windowStillEnds(_ kind: any TestServerKind) async throws {
        let server = try await kind.start(options)
        let (login, rotated) = try await firstUse(server)
        server.clock.advance(9)
        try await expectReused(server, try await refresh(server, login.refresh, from: app), rotated: rotated, "after the window")
        #expect(try await refreshes(server, "reused") == 1)
        await server.stop()
    }
}
