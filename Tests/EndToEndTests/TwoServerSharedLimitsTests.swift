import AccountAPI
import Foundation
import TestSupport
import Testing

/// The per-address mail budget, the password back-off behind a token and pending sign-ups, shared
/// by two real servers on one PostgreSQL database.
extension TwoServerTests {
    @Test func theMailBudgetOfAnAddressIsSharedByBothServers() async throws {
        let (a, b, folder, clock, _) = try await pair()
        let (owner, _) = try await a.verifiedAccount("budget2")
        // Within one minute: a sign-up on A (notice), a reset on B, a code on A: one message.
        clock.set(ahead: 61)
        let stranger = TestAccount(username: TestAccount("stranger").username, email: owner.email, password: "Pw-\(UUID().uuidString)")
        #expect(try await a.client.send("POST", "/auth/signup", model: stranger.signUpRequest).status == 202)
        #expect(try await b.client.send("POST", "/auth/password/reset", json: ["email": owner.email]).status == 202)
        #expect(try await a.client.send("POST", "/auth/email/code", json: ["email": owner.email, "purpose": "signup"]).status == 202)
        #expect(try await MailFolder(folder: folder.mail).settledCount(to: owner.email, expected: 2) == 2, "the sign-up code, then one notice")
        // A reset a minute, alternating servers: the fifth message of the hour is the last. Each
        // is delivered before the clock moves on: a jump past a sending server's 15-second claim
        // would let the other server send the same message again.
        for minute in 2...5 {
            clock.set(ahead: TimeInterval(61 * minute))
            let server = minute.isMultiple(of: 2) ? a : b
            #expect(try await server.client.send("POST", "/auth/password/reset", json: ["email": owner.email]).status == 202)
            let expected = min(5, minute + 1)
            #expect(try await MailFolder(folder: folder.mail).settledCount(to: owner.email, expected: expected) == expected, "minute \(minute)")
        }
        await a.stop()
        await b.stop()
    }

    @Test func passwordChecksBehindATokenShareTheBackoffAcrossServers() async throws {
        let (a, b, _, _, _) = try await pair()
        let (account, pair) = try await a.verifiedAccount("guess2")
        #expect(try await a.client.send("POST", "/auth/password/change", json: ["current_password": "wrong 1 pw", "new_password": "Fresh-\(UUID().uuidString)"], token: pair.access).status == 403)
        #expect(try await b.client.send("DELETE", "/auth/me", json: ["password": "wrong 2 pw"], token: pair.access).status == 403)
        #expect(try await a.client.send("POST", "/auth/login", json: ["username": account.username, "password": "wrong 3 pw"]).status == 401)
        #expect(try await b.client.send("POST", "/auth/password/change", json: ["current_password": "wrong 4 pw", "new_password": "Fresh-\(UUID().uuidString)"], token: pair.access).status == 403)
        #expect(try await a.client.send("DELETE", "/auth/me", json: ["password": "wrong 5 pw"], token: pair.access).status == 403)
        let refused = try await b.client.send("POST", "/auth/login", json: ["username": account.username, "password": account.password])
        #expect(refused.status == 429 && refused.problem?.code == .rateLimited)
        let change = try await a.client.send("POST", "/auth/password/change", json: ["current_password": account.password, "new_password": "Fresh-\(UUID().uuidString)"], token: pair.access)
        #expect(change.status == 429 && change.header("Retry-After") != nil)
        await a.stop()
        await b.stop()
    }

    @Test func aPendingSignUpOnOneServerHoldsItsNicknameOnTheOtherAndCompletesThere() async throws {
        let (a, b, folder, _, _) = try await pair()
        let account = TestAccount("pending2")
        #expect(try await a.client.send("POST", "/auth/signup", model: account.signUpRequest).status == 202)
        let other = TestAccount(username: account.username, email: TestAccount("other2").email, password: account.password)
        #expect(try await b.client.send("POST", "/auth/signup", model: other.signUpRequest).status == 409)
        let early = try await b.client.send("POST", "/auth/login", json: ["username": account.username, "password": account.password])
        #expect(early.status == 403 && early.problem?.code == .emailNotVerified)
        let code = try await MailFolder(folder: folder.mail).code(to: account.email)
        #expect(try await b.client.send("POST", "/auth/email/verify", json: ["email": account.email, "code": code]).status == 200)
        #expect(try await a.logIn(account).user.emailVerified)
        await a.stop()
        await b.stop()
    }

    @Test func simultaneousSignUpsOfOneAddressOnBothServersLetOneThroughAndItsCodeVerifies() async throws {
        let (a, b, folder, _, _) = try await pair()
        let email = TestAccount("sameaddr").email
        let accounts = (0..<8).map { index in TestAccount(username: TestAccount("same\(index)").username, email: email, password: "Pw-\(UUID().uuidString)") }
        let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for (index, account) in accounts.enumerated() {
                group.addTask { (index, try await (index.isMultiple(of: 2) ? a : b).client.send("POST", "/auth/signup", model: account.signUpRequest).status) }
            }
            return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        let winners = statuses.filter { $0.value == 202 }.map(\.key)
        #expect(winners.count == 1 && statuses.values.filter { $0 == 429 }.count == 7, "\(statuses)")
        #expect(try await MailFolder(folder: folder.mail).settledCount(to: email, expected: 1) == 1)
        // The code mailed is the code stored: it makes the winner's account.
        let code = try await MailFolder(folder: folder.mail).code(to: email)
        #expect(try await b.client.send("POST", "/auth/email/verify", json: ["email": email, "code": code]).status == 200)
        let winner = try #require(winners.first.map { accounts[$0] })
        #expect(try await a.logIn(winner).user.username == winner.username)
        await a.stop()
        await b.stop()
    }
}
