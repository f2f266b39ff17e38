import AccountAPI
import Foundation
import TestSupport
import Testing

/// Two real servers on one PostgreSQL database, as behind a load balancer: every piece of state
/// is shared.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct TwoServerTests {
    /// Two servers on a fresh database, sharing one mail folder and one clock file.
    func pair(_ extra: [String] = []) async throws -> (ServerProcess, ServerProcess, TemporaryFolder, TestClock, String) {
        let database = try await PostgresTestServer.freshDatabase()
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        // Few connections each: the test cluster is shared by every test running at once.
        let options = ["--database-url", database, "--database-pool", "2"] + extra
        let a = try await ServerProcess.start(in: folder, clock: clock, options)
        let b = try await ServerProcess.start(in: folder, clock: clock, options)
        return (a, b, folder, clock, database)
    }

    @Test func signUpOnOneVerifyAndLogInOnTheOtherMailSentOnce() async throws {
        let (a, b, folder, _, _) = try await pair()
        let account = TestAccount("twin")
        #expect(try await a.client.send("POST", "/auth/signup", model: account.signUpRequest).status == 202)
        let mail = MailFolder(folder: folder.mail)
        let code = try await mail.code(to: account.email)
        #expect(try await b.client.send("POST", "/auth/email/verify", json: ["email": account.email, "code": code]).status == 200)
        let login = try await b.logIn(account)
        #expect(try await a.me(login.access).status == 200)
        // Both servers deliver from the shared outbox; the message went out once.
        #expect(try await mail.settledCount(to: account.email, expected: 1) == 1)
        await a.stop()
        await b.stop()
    }

    @Test func refreshOnOneReuseDetectedOnTheOther() async throws {
        let (a, b, _, _, _) = try await pair(["--refresh-grace", "0"])
        let (_, first) = try await a.verifiedAccount("reuse2")
        let rotated = try await a.refresh(first.refresh).decode(TokenPair.self)
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await b.refresh(first.refresh).problem?.code == .refreshTokenReused)
        #expect(try await a.me(rotated.access).problem?.code == .sessionRevoked)
        await a.stop()
        await b.stop()
    }

    @Test func backoffCountsAcrossServers() async throws {
        let (a, b, _, _, _) = try await pair()
        let (account, _) = try await a.verifiedAccount("backoff2")
        for (index, server) in [a, b, a, b, a].enumerated() {
            #expect(try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": "wrong \(index) pw"]).status == 401)
        }
        let refused = try await b.client.send("POST", "/auth/login", json: ["username": account.username, "password": account.password])
        #expect(refused.status == 429 && refused.problem?.code == .rateLimited)
        await a.stop()
        await b.stop()
    }

    @Test func thePerAddressLimitCountsAcrossServers() async throws {
        let (a, b, _, _, _) = try await pair(["--ip-rate-limit", "3"])
        let statuses = [
            try await a.client.send("GET", "/auth/policy").status, try await b.client.send("GET", "/auth/policy").status,
            try await a.client.send("GET", "/auth/policy").status, try await b.client.send("GET", "/auth/policy").status,
        ]
        #expect(statuses == [200, 200, 200, 429])
        await a.stop()
        await b.stop()
    }

    @Test func aKeyRotatedForOneIsInTheOthersKeysAndVerifies() async throws {
        let (a, b, _, clock, database) = try await pair()
        let (account, before) = try await a.verifiedAccount("keys2")
        let rotate = try await runServerCommand(["keys", "rotate", "--database-url", database])
        #expect(rotate.status.isSuccess, "\(rotate.stderr)")
        // Servers reread the keys every 30 s: move their clock past that instead of waiting.
        clock.set(ahead: 31)
        let jwks = try await b.client.send("GET", "/.well-known/jwks.json").decode(JWKSet.self)
        #expect(jwks.keys.count == 2)
        let after = try await a.logIn(account)
        let kid = { (token: String) in try JSONSerialization.jsonObject(with: Data(Base64URL.decode(token.split(separator: ".")[0])!)) as? [String: Any] }
        let newKid = try kid(after.access)?["kid"] as? String
        #expect(newKid != (try kid(before.access)?["kid"] as? String))
        #expect(jwks.keys.contains { $0.kid == newKid })
        #expect(try await b.me(after.access).status == 200, "B verifies A's token signed with the new key")
        #expect(try await b.me(before.access).status == 200, "and the old key's tokens still verify")
        await a.stop()
        await b.stop()
    }

    @Test func databaseOutageAnswers503AndServiceResumes() async throws {
        let cluster = try await PrivateCluster.start()
        do {
            try await outage(cluster)
        } catch {
            try? await cluster.remove()
            throw error
        }
        try await cluster.remove()
    }

    func outage(_ cluster: PrivateCluster) async throws {
        let server = try await ServerProcess.start(["--database-url", cluster.url])
        let (account, pair) = try await server.verifiedAccount("outage")
        #expect(try await server.client.send("GET", "/readyz").status == 200)

        try await cluster.down()
        let clock = ContinuousClock()
        let start = clock.now
        let ready = try await server.client.send("GET", "/readyz")
        #expect(ready.status == 503 && ready.problem?.code == .serviceUnavailable)
        let me = try await server.me(pair.access)
        #expect(me.status == 503, "\(me.text)")
        #expect(start.duration(to: clock.now) < .seconds(10), "503s come quickly")
        #expect(try await server.client.send("GET", "/healthz").status == 200, "the process lives on")

        try await cluster.up()
        var recovered = false
        for _ in 0..<50 where !recovered {
            recovered = try await server.client.send("GET", "/readyz").status == 200
            if !recovered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(recovered)
        #expect(try await server.logIn(account).access.isEmpty == false)
        await server.stop()
    }
}

