import AccountAPI
import Foundation
import TestSupport
import Testing

/// The operators' console's foundation against the real binary: the admin role granted and
/// revoked only by `account-server admin`, the gate on `/admin/api/...` (role and a second factor
/// in the token's `amr`, read fresh on every request), and the audit log kept in the database.
@Suite struct AdminGateTests {
    func start() async throws -> (ServerProcess, TestClock) {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        return (try await ServerProcess.start(in: folder, clock: clock), clock)
    }

    /// `account-server admin …` on the server's database.
    func admin(_ server: ServerProcess, _ arguments: [String]) async throws -> ProgramResult {
        try await runServerCommand(["admin"] + arguments + ["--database-url", "sqlite:\(server.folder.database.path)"])
    }

    /// A login finished with the authenticator: a session whose `amr` names `otp`.
    func logInWithSecondFactor(_ server: ServerProcess, _ account: SecondFactorAccount, clock: TestClock) async throws -> TokenPair {
        let challenge = try await server.challenge(account.account)
        let reply = try await server.answer(challenge.mfaToken, code: account.code(at: clock.nextStep()))
        try #require(reply.status == 200, "mfa verify: \(reply.text)")
        return try reply.decode(TokenPair.self)
    }

    func audit(_ server: ServerProcess, _ token: String, query: String = "") async throws -> Reply {
        try await server.client.send("GET", "/admin/api/audit" + query, token: token)
    }

    @Test func roleFromTheCommandLineAndTheGateOnEveryRequest() async throws {
        let (server, clock) = try await start()
        let operatorAccount = try await server.accountWithSecondFactor("op")
        let (plain, plainPair) = try await server.verifiedAccount("plain")

        // Unknown nicknames and bad usage change nothing and say so.
        let unknown = try await admin(server, ["grant", "nobody-here"])
        #expect(unknown.status.code == 1 && unknown.stderr.contains("no account has the nickname nobody-here"), "\(unknown)")
        let usage = try await admin(server, ["promote", operatorAccount.account.username])
        #expect(usage.status.code == 2 && usage.stderr.contains("usage: account-server admin"), "\(usage)")
        let none = try await admin(server, ["list"])
        #expect(none.status.code == 0 && none.stdout.contains("no account has the admin role"), "\(none)")

        // Without the role: 403 admin_required, even with a second factor; no token is 401.
        let operatorPair = try await logInWithSecondFactor(server, operatorAccount, clock: clock)
        #expect(try amr(operatorPair.access) == ["pwd", "otp"])
        let before = try await audit(server, operatorPair.access)
        #expect(before.status == 403 && before.problem?.code == .adminRequired, "\(before.text)")
        #expect(try await server.client.send("GET", "/admin/api/audit").status == 401)

        let granted = try await admin(server, ["grant", operatorAccount.account.username.uppercased(), "--reason", "on call this week", "--actor", "mina"])
        #expect(granted.status.code == 0 && granted.stdout.contains("is now an operator"), "\(granted)")
        let again = try await admin(server, ["grant", operatorAccount.account.username])
        #expect(again.status.code == 0 && again.stdout.contains("already is an operator"), "\(again)")
        let plainGrant = try await admin(server, ["grant", plain.username])
        #expect(plainGrant.status.code == 0 && plainGrant.stdout.contains("has not turned on"), "\(plainGrant)")
        let list = try await admin(server, ["list"])
        #expect(list.stdout.contains(operatorAccount.account.username) && list.stdout.contains(plain.username), "\(list)")

        // The role with a password-only session: 403 second_factor_required (the enrolment's
        // session and a plain account's alike); with the factor in `amr`: 200.
        let enrolmentSession = try await audit(server, operatorAccount.pair.access)
        #expect(enrolmentSession.status == 403 && enrolmentSession.problem?.code == .secondFactorRequired, "\(enrolmentSession.text)")
        let plainSession = try await audit(server, plainPair.access)
        #expect(plainSession.status == 403 && plainSession.problem?.code == .secondFactorRequired, "\(plainSession.text)")
        let allowed = try await audit(server, operatorPair.access)
        #expect(allowed.status == 200, "\(allowed.text)")
        let page = try allowed.decode(AdminAuditPage.self)
        #expect(page.events.map(\.action) == ["admin_granted", "admin_granted"], "the repeated grant changed nothing, so no event")
        let first = try #require(page.events.last)
        #expect(first.actor == "cli:mina" && first.reason == "on call this week" && first.requestId == nil)
        #expect(page.events.first?.reason == nil && page.events.first?.actor.hasPrefix("cli:") == true)
        let me = try await server.me(operatorPair.access).decode(User.self)
        #expect(first.targetId == me.id.lowercasedText)
        // The reply has every member, nulls included.
        let raw = try #require(allowed.object?["events"] as? [[String: Any]])
        #expect(raw.allSatisfy { Set($0.keys) == ["id", "at", "actor", "target_id", "action", "reason", "request_id"] })
        #expect(allowed.object?.keys.contains("next") == true)

        // Revoked on the command line: refused on the very next request, by the same token.
        let revoked = try await admin(server, ["revoke", operatorAccount.account.username, "--reason", "left the team"])
        #expect(revoked.status.code == 0 && revoked.stdout.contains("no longer an operator"), "\(revoked)")
        let after = try await audit(server, operatorPair.access)
        #expect(after.status == 403 && after.problem?.code == .adminRequired, "\(after.text)")
        // The app itself still works for the account.
        #expect(try await server.me(operatorPair.access).status == 200)
        await server.stop()
    }

    @Test func aPasskeyLoginIsTheOperatorsSecondFactor() async throws {
        let folder = try TemporaryFolder()
        let server = try await ServerProcess.start(in: folder, PasskeyServer.arguments)
        let (account, pair) = try await server.verifiedAccount("keyop")
        var (passkey, _) = try await server.addPasskey(pair.access, .es256, name: "iPhone", proof: ["password": account.password])
        // A key bound to its device (a security key, the console's browser): `hwk` instead of `swk`.
        var deviceBound = PasskeyServer.ceremony
        deviceBound.backupEligible = false
        deviceBound.backedUp = false
        var (securityKey, _) = try await server.addPasskey(
            pair.access, .eddsa, name: "Security key", ceremony: deviceBound, proof: try await server.passkeyProof(&passkey, token: pair.access))
        #expect(try await admin(server, ["grant", account.username]).status.code == 0)
        // The password's session is refused; the passkey's (amr names `mfa`) is let in.
        #expect(try await audit(server, pair.access).problem?.code == .secondFactorRequired)
        let login = try await server.passkeyLogin(&passkey)
        try #require(login.status == 200, "\(login.text)")
        let synced = try login.decode(TokenPair.self)
        #expect(try amr(synced.access) == ["swk", "user", "mfa"])
        #expect(try await audit(server, synced.access).status == 200)
        let keyLogin = try await server.passkeyLogin(&securityKey, deviceBound)
        try #require(keyLogin.status == 200, "\(keyLogin.text)")
        let bound = try keyLogin.decode(TokenPair.self)
        #expect(try amr(bound.access) == ["hwk", "user", "mfa"])
        #expect(try await audit(server, bound.access).status == 200)
        // The console refreshes its tokens: the session's `amr` goes with it, so the operator stays in.
        let refreshed = try await server.refresh(bound.refresh)
        try #require(refreshed.status == 200, "\(refreshed.text)")
        let next = try refreshed.decode(TokenPair.self).access
        #expect(try amr(next) == ["hwk", "user", "mfa"])
        #expect(try await audit(server, next).status == 200)
        // Revoked: the passkey's session is refused on its next request, like any other.
        #expect(try await admin(server, ["revoke", account.username]).status.code == 0)
        #expect(try await audit(server, next).problem?.code == .adminRequired)
        await server.stop()
    }

    /// `admin list` and `admin grant` count a passkey as the operator's second factor, as the
    /// console does: an operator whose only one is a passkey is not told to turn one on.
    @Test func theCommandLineCountsAPasskeyAsTheOperatorsSecondFactor() async throws {
        let folder = try TemporaryFolder()
        let server = try await ServerProcess.start(in: folder, PasskeyServer.arguments)
        let (account, pair) = try await server.verifiedAccount("keylist")
        let bare = try await admin(server, ["grant", account.username])
        #expect(bare.status.code == 0 && bare.stdout.contains("has not turned on"), "\(bare)")
        let bareList = try await admin(server, ["list"])
        #expect(bareList.stdout.contains("no second factor (cannot use the console until one is on)"), "\(bareList)")

        _ = try await server.addPasskey(pair.access, .es256, name: "iPhone", proof: ["password": account.password])
        let list = try await admin(server, ["list"])
        #expect(list.status.code == 0 && list.stdout.contains(account.username), "\(list)")
        #expect(list.stdout.contains("second factor on (passkey)") && !list.stdout.contains("no second factor"), "\(list)")
        #expect(try await admin(server, ["revoke", account.username]).status.code == 0)
        let granted = try await admin(server, ["grant", account.username])
        #expect(granted.status.code == 0 && granted.stdout.contains("is now an operator"), "\(granted)")
        #expect(!granted.stdout.contains("second factor"), "\(granted)")
        await server.stop()
    }

    @Test func auditLogIsKeysetPagedNewestFirst() async throws {
        let (server, clock) = try await start()
        let operatorAccount = try await server.accountWithSecondFactor("op")
        #expect(try await admin(server, ["grant", operatorAccount.account.username]).status.code == 0)
        let pair = try await logInWithSecondFactor(server, operatorAccount, clock: clock)
        for index in 0..<3 {
            #expect(try await admin(server, ["revoke", operatorAccount.account.username, "--reason", "round \(index)"]).status.code == 0)
            #expect(try await admin(server, ["grant", operatorAccount.account.username, "--reason", "round \(index)"]).status.code == 0)
        }
        var seen: [AdminAuditEvent] = []
        var cursor: String?
        var pages = 0
        repeat {
            let query = "?limit=2" + (cursor.map { "&after=\($0)" } ?? "")
            let reply = try await audit(server, pair.access, query: query)
            try #require(reply.status == 200, "\(reply.text)")
            let page = try reply.decode(AdminAuditPage.self)
            #expect(page.events.count <= 2)
            seen += page.events
            cursor = page.next
            pages += 1
        } while cursor != nil && pages < 10
        #expect(seen.count == 7 && pages == 4, "7 events in pages of 2")
        #expect(Set(seen.map(\.id)).count == 7, "no event twice across pages")
        #expect(seen.first?.action == "admin_granted" && seen.first?.reason == "round 2", "newest first")
        #expect(seen.last?.reason == nil && seen.last?.action == "admin_granted", "the first grant is last")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.at >= $1.at })

        for query in ["?limit=0", "?limit=101", "?limit=x", "?after=not-a-cursor", "?after=" + Base64URL.encode(Array("1.x".utf8))] {
            let reply = try await audit(server, pair.access, query: query)
            #expect(reply.status == 400 && reply.problem?.code == .invalidRequest, "\(query): \(reply.text)")
        }
        await server.stop()
    }
}
