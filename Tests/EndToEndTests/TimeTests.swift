import AccountAPI
import Foundation
import TestSupport
import Testing

/// Rules that depend on time, against the real binary with its clock moved through `--clock-file`
/// instead of sleeping.
@Suite struct TimeTests {
    @Test func backoffExpiriesAndIdleSessionsFollowTheServersClock() async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock)
        let (account, pair) = try await server.verifiedAccount("clock")

        // Five failures back the account off for 30 s, whatever time passes in between.
        for index in 0..<5 {
            let wrong = try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": "wrong \(index) password"])
            #expect(wrong.status == 401)
        }
        let refused = try await server.client.send("POST", "/auth/login", json: ["email": account.email, "password": account.password])
        // Real time passes between the fifth failure and this try too.
        #expect(refused.status == 429 && (20...30).contains(Int(refused.header("Retry-After") ?? "") ?? 0), "\(refused.text)")
        clock.set(ahead: 31)
        #expect(try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": account.password]).status == 200)

        // The access token expires after 15 minutes (plus 60 s of tolerated skew)…
        clock.set(ahead: 31 + 900 + 61)
        let expired = try await server.me(pair.access)
        #expect(expired.status == 401 && expired.problem?.code == .tokenExpired, "\(expired.text)")
        // …while the session lives on until 30 days without use.
        let refreshed = try await server.refresh(pair.refresh)
        #expect(refreshed.status == 200)
        let idle = try refreshed.decode(TokenPair.self)
        clock.set(ahead: 31 + 900 + 61 + 30 * 24 * 3600 + 1)
        #expect(try await server.refresh(idle.refresh).problem?.code == .tokenExpired)

        // A code expires after ten minutes.
        let other = TestAccount("clockcode")
        #expect(try await server.client.send("POST", "/auth/email/code", model: EmailCodeRequest(email: other.email, purpose: .signup)).status == 202)
        let code = try await server.mail.code(to: other.email)
        clock.set(ahead: 31 + 900 + 61 + 30 * 24 * 3600 + 1 + 601)
        let late = try await server.client.send("POST", "/auth/email/verify", json: ["email": other.email, "code": code])
        #expect(late.problem?.code == .codeExpired, "\(late.text)")
        await server.stop()
    }
}
