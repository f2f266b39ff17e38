import AccountAPI
import Foundation
import TestSupport
import Testing

extension ServerProcess {
    /// `POST /auth/refresh` as a client with `userAgent`, forwarded as `address` by the loopback
    /// peer (the server trusts 127.0.0.1 as a proxy in these tests).
    func refresh(_ token: String, userAgent: String, address: String) async throws -> Reply {
        try await client.send("POST", "/auth/refresh", json: ["refresh": token], headers: ["User-Agent": userAgent, "X-Forwarded-For": address])
    }
}

/// The grace repeat of a refresh bound to the client, where only the binary shows it: the log's
/// `refresh_token_reused` events, and two servers sharing PostgreSQL. The repeat and the reuse
/// themselves are in `Tests/Scenarios/RefreshGraceScenarios.swift`, run both ways.
@Suite("Refresh grace bound to the client, over HTTP")
struct RefreshGraceBindingEndToEndTests {
    static let options = ["--trusted-proxy", "127.0.0.1"]

    @Test func aRefusedRepeatIsLoggedWithItsReasonAndTheClientsAddress() async throws {
        let server = try await ServerProcess.start(in: nil, Self.options)
        let (_, login) = try await server.verifiedAccount("grace")
        let first = try await server.refresh(login.refresh, userAgent: "App/1.0", address: "203.0.113.1")
        try #require(first.status == 200, "\(first.text)")
        let again = try await server.refresh(login.refresh, userAgent: "App/1.0", address: "203.0.113.1")
        try #require(again.status == 200, "the same client's repeat: \(again.text)")
        let elsewhere = try await server.refresh(login.refresh, userAgent: "App/1.0", address: "203.0.113.2")
        try #require(elsewhere.problem?.code == .refreshTokenReused, "\(elsewhere.text)")
        // Another User-Agent from the same address.
        let (_, second) = try await server.verifiedAccount("grace2")
        try #require(try await server.refresh(second.refresh, userAgent: "App/1.0", address: "203.0.113.1").status == 200)
        let otherAgent = try await server.refresh(second.refresh, userAgent: "curl/8.0", address: "203.0.113.1")
        try #require(otherAgent.problem?.code == .refreshTokenReused, "\(otherAgent.text)")

        // The log's own thread writes the lines a few milliseconds after the replies.
        try await eventually("two refresh_token_reused lines") { logEvents(server.logs, "refresh_token_reused").count >= 2 }
        let events = logEvents(server.logs, "refresh_token_reused")
        #expect(events.count == 2, "the same client's repeat is no event")
        #expect(events.allSatisfy { $0["reason"] as? String == "other_client" })
        #expect(events.first?["client"] as? String == "203.0.113.2")
        await server.stop()
    }

    @Test(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
    func acrossTwoServersOnPostgreSQL() async throws {
        let database = try await PostgresTestServer.freshDatabase()
        let folder = try TemporaryFolder()
        let options = Self.options + ["--database-url", database, "--database-pool", "2"]
        let a = try await ServerProcess.start(in: folder, options)
        let b = try await ServerProcess.start(in: folder, options)
        let (_, login) = try await a.verifiedAccount("pggrace")
        let rotated = try await a.refresh(login.refresh, userAgent: "App/2.0", address: "198.51.100.1").decode(TokenPair.self)
        // The lost reply is retried on the other server: same client, same pair.
        let retried = try await b.refresh(login.refresh, userAgent: "App/2.0", address: "198.51.100.1")
        #expect(try retried.decode(TokenPair.self).refresh == rotated.refresh)
        let stolen = try await b.refresh(login.refresh, userAgent: "App/2.0", address: "198.51.100.99")
        #expect(stolen.problem?.code == .refreshTokenReused)
        #expect(try await a.me(rotated.access).problem?.code == .sessionRevoked)
        await a.stop()
        await b.stop()
    }
}

/// Two servers sharing one sealed PostgreSQL database with the same key file.
@Suite("Sealed secrets on PostgreSQL", .enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct SealedPostgresTests {
    @Test func twoServersStartTogetherOnAClearDatabaseShareItSealedAndRefuseAnotherKey() async throws {
        let database = try await PostgresTestServer.freshDatabase()
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        // A clear database with a first key and a user, as before the key file.
        let before = try await ServerProcess.start(in: folder, ["--database-url", database, "--database-pool", "2"])
        let (account, pair) = try await before.verifiedAccount("pgseal")
        await before.stop()

        let key = try await SecretKeyFileEndToEndTests.generateKey(in: folder)
        let options = ["--database-url", database, "--database-pool", "2", "--secret-key-file", key]
        // Both start at once: one seals, the other finds it sealed with the same key.
        async let startA = ServerProcess.start(in: folder, clock: clock, options)
        async let startB = ServerProcess.start(in: folder, clock: clock, options)
        let (a, b) = try await (startA, startB)
        #expect(logEvents(a.logs, "secrets_sealed").count + logEvents(b.logs, "secrets_sealed").count == 1, "\(a.logs)\n\(b.logs)")
        #expect(try await b.me(pair.access).status == 200)
        let fresh = try await a.logIn(account)
        #expect(try await b.me(fresh.access).status == 200)
        let second = TestAccount("pgseal2")
        try await a.signUp(second)
        try await b.verify(second.email)
        #expect(try await a.logIn(second).access.isEmpty == false)

        let other = try await SecretKeyFileEndToEndTests.generateKey(in: folder, "other.key")
        let refused = try await SecretKeyFileEndToEndTests.refusedStart(folder, ["--database-url", database, "--secret-key-file", other])
        #expect(refused.contains("sealed with secret key"), "\(refused)")
        let withoutKey = try await runServerCommand(["keys", "rotate", "--database-url", database])
        #expect(withoutKey.status == ExitStatus(code: 1, signaled: false))

        let rotate = try await runServerCommand(["keys", "rotate", "--database-url", database, "--secret-key-file", key])
        #expect(rotate.status.isSuccess, "\(rotate.stderr)")
        clock.set(ahead: 31)
        let rotated = try await b.logIn(account)
        #expect(try SecretKeyFileEndToEndTests.kid(of: rotated.access) != SecretKeyFileEndToEndTests.kid(of: pair.access))
        #expect(try await a.me(rotated.access).status == 200)
        await a.stop()
        await b.stop()
    }
}
