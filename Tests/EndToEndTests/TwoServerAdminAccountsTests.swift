import AccountAPI
import Foundation
import TestSupport
import Testing

/// Disabling and ending sessions on one of two servers sharing PostgreSQL: the other refuses the
/// account's old tokens on the very next request, having answered them a moment before.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct TwoServerAdminAccountsTests {
    @Test func disableAndEndSessionsReachBothServersAtOnce() async throws {
        let database = try await PostgresTestServer.freshDatabase()
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let options = ["--database-url", database, "--database-pool", "2"]
        let a = try await ServerProcess.start(in: folder, clock: clock, options)
        let b = try await ServerProcess.start(in: folder, clock: clock, options)
        let op = try await a.signedInOperator("twinop")

        let (target, onA) = try await a.verifiedAccount("target")
        let onB = try await b.logIn(target)
        let id = a.accountID(onA)
        for server in [a, b] {
            for pair in [onA, onB] { #expect(try await server.me(pair.access).status == 200) }
        }
        let disabled = try await b.adminAction("disable", on: id, reason: "twin", token: op.access)
        #expect(disabled.status == 200, "\(disabled.text)")
        for server in [a, b] {
            for pair in [onA, onB] {
                #expect(try await server.me(pair.access).status == 401)
                #expect(try await server.refresh(pair.refresh).status == 401)
            }
            let login = try await server.client.send("POST", "/auth/login", model: LoginRequest(username: target.username, password: target.password))
            #expect(login.status == 403 && login.problem?.code == .accountDisabled, "\(login.text)")
        }
        #expect(try await a.adminAction("enable", on: id, reason: "twin", token: op.access).status == 200)
        let again = [try await a.logIn(target), try await b.logIn(target)]
        for server in [a, b] {
            for pair in again { #expect(try await server.me(pair.access).status == 200) }
        }
        let ended = try await a.adminAction("end-sessions", on: id, reason: "twin", token: op.access)
        #expect(try ended.decode(AdminSessionsEnded.self).ended == 2, "\(ended.text)")
        for server in [a, b] {
            for pair in again { #expect(try await server.me(pair.access).status == 401) }
        }
        let actions = try await b.auditEvents(token: op.access).prefix(3).map(\.action)
        #expect(actions == ["sessions_ended", "account_enabled", "account_disabled"])
        await a.stop()
        await b.stop()
    }
}
