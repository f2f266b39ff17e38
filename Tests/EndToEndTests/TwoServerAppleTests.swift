import AccountAPI
import Foundation
import TestSupport
import Testing

/// Sign in with Apple on two real servers sharing one PostgreSQL database: one identity token sent
/// to both at the same moment is accepted once, whatever it would get (a session, a continuation).
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct TwoServerAppleTests {
    @Test func aTokenSentToBothServersAtOnceIsAcceptedOnce() async throws {
        let database = try await PostgresTestServer.freshDatabase()
        let options = ["--database-url", database, "--database-pool", "2"]
        let a = try await AppleServer.start(options)
        let second = try await ServerProcess.start(in: a.folder, clock: a.clock, a.apple.serverArguments + options)
        let b = AppleServer(server: second, apple: a.apple, clock: a.clock, folder: a.folder)
        let (sub, email, _, pair) = try await a.appleAccount("twinapple")

        // A login: four copies, two on each server, at once: one session.
        for _ in 0..<3 {
            let (token, nonce) = a.token(sub: sub, email: email)
            async let r1 = a.signIn(token, nonce: nonce)
            async let r2 = b.signIn(token, nonce: nonce)
            async let r3 = a.signIn(token, nonce: nonce)
            async let r4 = b.signIn(token, nonce: nonce)
            let replies = try await [r1, r2, r3, r4]
            let statuses = replies.map(\.status)
            #expect(statuses.filter { $0 == 200 }.count == 1 && statuses.filter { $0 == 401 }.count == 3, "\(statuses)")
            #expect(replies.filter { $0.status == 401 }.allSatisfy { $0.problem?.code == .appleTokenInvalid })
        }
        let sessions = try await a.server.client.send("GET", "/auth/sessions", token: pair.access).decode(SessionList.self).sessions
        #expect(sessions.count == 1 + 3, "the sign-up's session and one a race: \(sessions.count)")

        // A new Apple user: one continuation.
        let newcomer = AppleServer.newUser()
        let (token, nonce) = a.token(sub: newcomer.sub, email: newcomer.email)
        async let n1 = a.signIn(token, nonce: nonce)
        async let n2 = b.signIn(token, nonce: nonce)
        async let n3 = a.signIn(token, nonce: nonce)
        async let n4 = b.signIn(token, nonce: nonce)
        let replies = try await [n1, n2, n3, n4]
        #expect(replies.filter { $0.problem?.code == .profileRequired }.count == 1, "\(replies.map(\.text))")
        #expect(replies.filter { $0.status == 401 && $0.problem?.code == .appleTokenInvalid }.count == 3)

        // Used on one server, refused on the other.
        let (used, usedNonce) = a.token(sub: sub, email: email)
        #expect(try await a.signIn(used, nonce: usedNonce).status == 200)
        #expect(try await b.signIn(used, nonce: usedNonce).status == 401)
        await second.stop()
        await a.stop()
        #expect((a.server.logs + second.logs).contains("\"reason\":\"replayed\""))
    }
}
