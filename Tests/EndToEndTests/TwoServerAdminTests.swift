import AccountAPI
import Foundation
import TestSupport
import Testing

/// The admin role on two real servers sharing one PostgreSQL database: granted and revoked by
/// `account-server admin` on the database, seen by both servers on the very next request.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct TwoServerAdminTests {
    @Test func roleChangesReachBothServersAtOnce() async throws {
        let database = try await PostgresTestServer.freshDatabase()
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let options = ["--database-url", database, "--database-pool", "2"]
        let a = try await ServerProcess.start(in: folder, clock: clock, options)
        let b = try await ServerProcess.start(in: folder, clock: clock, options)
        let operatorAccount = try await a.accountWithSecondFactor("twinop")
        let challenge = try await b.challenge(operatorAccount.account)
        let signedIn = try await b.answer(challenge.mfaToken, code: operatorAccount.code(at: clock.nextStep()))
        let access = try signedIn.decode(TokenPair.self).access

        for server in [a, b] {
            #expect(try await server.client.send("GET", "/admin/api/audit", token: access).problem?.code == .adminRequired)
        }
        let grant = try await runServerCommand(["admin", "grant", operatorAccount.account.username, "--reason", "twin", "--database-url", database])
        #expect(grant.status.code == 0, "\(grant)")
        for server in [a, b] {
            let reply = try await server.client.send("GET", "/admin/api/audit", token: access)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(try reply.decode(AdminAuditPage.self).events.map(\.action) == ["admin_granted"])
        }
        let list = try await runServerCommand(["admin", "list", "--database-url", database])
        #expect(list.stdout.contains(operatorAccount.account.username), "\(list)")
        #expect(try await runServerCommand(["admin", "revoke", operatorAccount.account.username, "--database-url", database]).status.code == 0)
        for server in [a, b] {
            #expect(try await server.client.send("GET", "/admin/api/audit", token: access).problem?.code == .adminRequired)
        }
        await a.stop()
        await b.stop()
    }
}
