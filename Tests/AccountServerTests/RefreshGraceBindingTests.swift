import AccountAPI
import AccountStore
import Foundation
import HTTPServer
import Sodium
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer
@testable import AccountStoreSQLite

/// The grace repeat of a refresh goes only to the client that used the token first, where only a
/// request built in process can put the client: the peer's own address (no proxy, IPv6 too), a
/// User-Agent empty, absent or with a trailing blank, a proxy's peer address, and what the store
/// keeps of the client. The repeat, another client's reuse over HTTP, and the window's end are
/// in `Tests/Scenarios/RefreshGraceScenarios.swift`, run both ways.
@Suite("Refresh grace bound to the first client")
struct RefreshGraceBindingTests {
    /// `POST /auth/refresh` from `address` with `userAgent` (none when nil) and more headers.
    func refresh(_ harness: Harness, _ token: String, userAgent: String?, address: String = "192.0.2.10", headers: [String: String] = [:]) async -> Reply {
        var requestHeaders: HTTPHeaders = ["Content-Type": "application/json"]
        if let userAgent { requestHeaders.set("User-Agent", userAgent) }
        for (name, value) in headers { requestHeaders.set(name, value) }
        let body = Array("{\"refresh\":\"\(token)\"}".utf8)
        return Reply(response: await harness.app.handle(HTTPRequest(method: "POST", path: "/auth/refresh", query: [:], headers: requestHeaders, body: body, remoteAddress: address)))
    }

    /// A signed-in session and its first rotation by `userAgent` from `address`.
    func firstUse(_ harness: Harness, userAgent: String? = "App/1.0", address: String = "192.0.2.10", headers: [String: String] = [:]) async throws -> (login: TokenPair, rotated: TokenPair) {
        let login = try await harness.signedIn(.minsu)
        harness.clock.advance(30)
        let first = await refresh(harness, login.refresh, userAgent: userAgent, address: address, headers: headers)
        #expect(first.status == 200)
        harness.clock.advance(2)
        return (login, try first.decode(TokenPair.self))
    }

    func expectReused(_ harness: Harness, _ reply: Reply, rotated: TokenPair, repeated: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(reply.status == 401, sourceLocation: sourceLocation)
        #expect(reply.code == "refresh_token_reused", sourceLocation: sourceLocation)
        #expect(try await harness.send("POST", "/auth/refresh", json: ["refresh": rotated.refresh]).code == "session_revoked", sourceLocation: sourceLocation)
        #expect(try await harness.send("GET", "/auth/me", token: rotated.access).code == "session_revoked", sourceLocation: sourceLocation)
        #expect(harness.app.metrics.refreshes(.reused) == 1, sourceLocation: sourceLocation)
        #expect(harness.app.metrics.refreshes(.repeated) == repeated, sourceLocation: sourceLocation)
    }

    @Test("a User-Agent with a trailing blank, or empty, within the window is reuse: the session is revoked", arguments: [
        "App/1.0 ", "",
    ])
    func otherUserAgent(_ userAgent: String) async throws {
        let harness = try await Harness.make()
        let (login, rotated) = try await firstUse(harness)
        try await expectReused(harness, await refresh(harness, login.refresh, userAgent: userAgent), rotated: rotated)
    }

    @Test("no User-Agent where the first use had one, and one where it had none, are other clients")
    func absentUserAgent() async throws {
        let first = try await Harness.make()
        let (login, rotated) = try await firstUse(first)
        try await expectReused(first, await refresh(first, login.refresh, userAgent: nil), rotated: rotated)

        let second = try await Harness.make()
        let (login2, rotated2) = try await firstUse(second, userAgent: nil)
        #expect(await refresh(second, login2.refresh, userAgent: nil).status == 200)
        try await expectReused(second, await refresh(second, login2.refresh, userAgent: ""), rotated: rotated2, repeated: 1)
    }

    @Test("another address within the window is reuse, however close", arguments: ["192.0.2.11", "::1", "192.0.2.1"])
    func otherAddress(_ address: String) async throws {
        let harness = try await Harness.make()
        let (login, rotated) = try await firstUse(harness)
        try await expectReused(harness, await refresh(harness, login.refresh, userAgent: "App/1.0", address: address), rotated: rotated)
    }

    @Test("behind a trusted proxy the address is the forwarded one: another client behind the same proxy is reuse")
    func trustedProxy() async throws {
        let harness = try await Harness.make { $0.trustedProxies = ["10.0.0.2", "10.0.0.3"] }
        let (login, rotated) = try await firstUse(harness, address: "10.0.0.2", headers: ["X-Forwarded-For": "203.0.113.5"])
        // The same client through the other proxy is the same client.
        let same = await refresh(harness, login.refresh, userAgent: "App/1.0", address: "10.0.0.3", headers: ["X-Forwarded-For": "203.0.113.5"])
        #expect(same.status == 200)
        #expect(try same.decode(TokenPair.self).refresh == rotated.refresh)
        // An untrusted peer cannot claim the first client's address.
        let spoofed = await refresh(harness, login.refresh, userAgent: "App/1.0", address: "198.51.100.7", headers: ["X-Forwarded-For": "203.0.113.5"])
        #expect(spoofed.code == "refresh_token_reused")
        #expect(try await harness.send("GET", "/auth/me", token: rotated.access).code == "session_revoked")
    }

    @Test("the grace is bound by a 16-byte keyed fingerprint of the client, not its User-Agent or address; the address is only the session's own, while it lives")
    func storedFingerprint() async throws {
        let harness = try await Harness.make()
        let userAgent = "DistinctiveAgent/9.9 (unique-device-name)"
        let (login, _) = try await firstUse(harness, userAgent: userAgent, address: "203.0.113.77")
        let sessionID = try #require(RefreshToken(text: login.refresh, keys: harness.app.services.secrets.refreshKeys)).sessionID
        let state = try #require(try await harness.store.read { try $0.refreshableSession(id: sessionID) }?.refresh)
        let fingerprint = try #require(state.rotatedBy)
        #expect(fingerprint.count == 16)
        #expect(fingerprint == ClientFingerprint.of(userAgent: userAgent, address: "203.0.113.77", key: harness.app.services.secrets.clientKey))
        // Keyed: without the server's key the same values give another fingerprint.
        #expect(fingerprint != ClientFingerprint.of(userAgent: userAgent, address: "203.0.113.77", key: [UInt8](repeating: 0, count: 32)))
        #expect(fingerprint != Array(Digest.sha256(Array((userAgent + "203.0.113.77").utf8)).prefix(16)))
        let file = try Data(contentsOf: harness.folder.appendingPathComponent("account.sqlite"))
            + ((try? Data(contentsOf: harness.folder.appendingPathComponent("account.sqlite-wal"))) ?? Data())
        #expect(file.range(of: Data("unique-device-name".utf8)) == nil, "the refresh's User-Agent is nowhere in the database")
        // The address is kept as the session's last one (the account sees where its sessions are
        // used), and forgotten when the session ends.
        #expect(try await harness.store.read { try $0.session(id: sessionID) }?.clientAddress == "203.0.113.77")
        #expect(try await harness.store.write { try $0.revokeSession(id: sessionID, at: harness.clock.now) })
        #expect(try await harness.store.read { try $0.session(id: sessionID) }?.clientAddress == nil)
    }
}
