import AccountAPI
import Foundation
import TestSupport
import Testing

/// Passkeys on two real servers sharing one PostgreSQL database: a passkey added on one logs in on
/// the other, a challenge issued by one is answered on the other, and a challenge answered at the
/// same moment on both is accepted once.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct TwoServerPasskeyTests {
    @Test func challengesAndCredentialsAreShared() async throws {
        let database = try await PostgresTestServer.freshDatabase()
        let folder = try TemporaryFolder()
        let options = ["--database-url", database, "--database-pool", "2"] + PasskeyServer.arguments
        let a = try await ServerProcess.start(in: folder, options)
        let b = try await ServerProcess.start(in: folder, options)
        let (account, pair) = try await a.verifiedAccount("twinpk")

        // Registration options from A, answered on B.
        let (passkey, challenge) = try await a.newPasskey(pair.access)
        let added = try await b.register(passkey.register(challenge: challenge, PasskeyServer.ceremony), proof: ["password": account.password], token: pair.access)
        #expect(added.status == 201, "\(added.text)")
        var signer = passkey

        // Login options from B, answered on A; the same answer on B is a replay.
        let login = try await b.loginOptions()
        let assertion = signer.assert(challenge: try #require(Base64URL.decode(login.challenge)), PasskeyServer.ceremony)
        let first = try await a.answer(assertion)
        #expect(first.status == 200, "\(first.text)")
        #expect(try first.decode(TokenPair.self).user.id == pair.user.id)
        let replay = try await b.answer(assertion)
        #expect(replay.status == 400 && replay.problem?.code == .challengeInvalid, "\(replay.text)")

        // One answer sent to both servers twice at the same moment: one session.
        let raced = try await a.loginOptions()
        let once = signer.assert(challenge: try #require(Base64URL.decode(raced.challenge)), PasskeyServer.ceremony)
        async let r1 = a.answer(once)
        async let r2 = b.answer(once)
        async let r3 = a.answer(once)
        async let r4 = b.answer(once)
        let statuses = try await [r1, r2, r3, r4].map(\.status)
        #expect(statuses.filter { $0 == 200 }.count == 1 && statuses.filter { $0 == 400 }.count == 3, "\(statuses)")

        // The counter is shared: an older signature count is refused on either server.
        var clone = signer
        clone.signCount = 0
        #expect(try await b.passkeyLogin(&clone).status == 401)
        #expect(try await b.passkeyLogin(&signer).status == 200)
        #expect(try await a.client.send("GET", "/auth/passkeys", token: pair.access).decode(PasskeyList.self).passkeys.count == 1)
        await a.stop()
        await b.stop()
    }
}
