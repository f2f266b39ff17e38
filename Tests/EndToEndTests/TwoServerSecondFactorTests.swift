import AccountAPI
import Foundation
import TestSupport
import Testing

/// The second factor on two real servers sharing one PostgreSQL database: factors, challenges,
/// used steps, recovery codes and the back-off are shared, and one code wins once however many
/// requests on either server carry it at the same moment.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct TwoServerSecondFactorTests {
    @Test func stateIsSharedAndOneCodeWinsOnce() async throws {
        let database = try await PostgresTestServer.freshDatabase()
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let options = ["--database-url", database, "--database-pool", "2"]
        let a = try await ServerProcess.start(in: folder, clock: clock, options)
        let b = try await ServerProcess.start(in: folder, clock: clock, options)
        let mfa = try await a.accountWithSecondFactor("twinmfa")
        #expect(try await b.me(mfa.pair.access).decode(User.self).mfa == SecondFactorStatus(totp: true, recoveryCodesLeft: 10))

        // A challenge B made is answered on A; the code is then used on B too.
        let now = clock.nextStep()
        let verified = try await a.answer(try await b.challenge(mfa.account).mfaToken, code: mfa.code(at: now))
        #expect(verified.status == 200, "\(verified.text)")
        #expect(try amr(try verified.decode(TokenPair.self).access) == ["pwd", "otp"])
        let replay = try await b.answer(try await b.challenge(mfa.account).mfaToken, code: mfa.code(at: now))
        #expect(replay.problem?.code == .codeInvalid, "\(replay.text)")

        // Four logins answered with one code at the same moment, on both servers: one session.
        // (A success first clears the failures above, so the back-off stays out of the race.)
        #expect(try await b.answer(try await b.challenge(mfa.account).mfaToken, code: mfa.code(at: clock.nextStep())).status == 200)
        let code = mfa.code(at: clock.nextStep())
        let statuses = try await race(a, b, mfa) { ["code": code] }
        #expect(statuses.filter { $0 == 200 }.count == 1 && statuses.filter { $0 == 400 }.count == 3, "\(statuses)")

        // The same with one recovery code.
        #expect(try await a.answer(try await a.challenge(mfa.account).mfaToken, code: mfa.code(at: clock.nextStep())).status == 200)
        let recovery = try await race(a, b, mfa) { ["recovery_code": mfa.recoveryCodes[0]] }
        #expect(recovery.filter { $0 == 200 }.count == 1 && recovery.filter { $0 == 400 }.count == 3, "\(recovery)")
        #expect(try await a.me(mfa.pair.access).decode(User.self).mfa?.recoveryCodesLeft == 9)

        // Wrong codes on either server count in one back-off and on one challenge.
        #expect(try await a.answer(try await a.challenge(mfa.account).mfaToken, code: mfa.code(at: clock.nextStep())).status == 200)
        let token = try await a.challenge(mfa.account).mfaToken
        let wrong = mfa.code(at: clock.serverNow) == "000000" ? "111111" : "000000"
        for server in [a, b, a, b, a] {
            #expect(try await server.answer(token, code: wrong).problem?.code == .codeInvalid)
        }
        #expect(try await b.answer(token, code: mfa.code(at: clock.serverNow)).problem?.code == .tooManyAttempts)
        let backedOff = try await b.client.send("POST", "/auth/login", json: ["username": mfa.account.username, "password": mfa.account.password])
        #expect(backedOff.status == 429 && backedOff.problem?.code == .rateLimited, "\(backedOff.text)")
        await a.stop()
        await b.stop()
    }

    /// Two challenges on each server, all answered at once with `factor`; the statuses.
    func race(_ a: ServerProcess, _ b: ServerProcess, _ mfa: SecondFactorAccount, _ factor: () -> [String: String]) async throws -> [Int] {
        var requests: [Burst.Request] = []
        for server in [a, b, a, b] {
            let token = try #require(try await server.challenge(mfa.account).mfaToken)
            requests.append(Burst.Request(port: server.port, "POST", "/auth/mfa/verify", json: factor().merging(["mfa_token": token]) { $1 }))
        }
        return try await Burst.send(requests).map(\.status)
    }
}
