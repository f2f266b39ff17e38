import AccountAPI
import Foundation
import TestSupport
import Testing

/// `account-server admin users …` through the real binary on a running server's database: the
/// same actions as the admin API, seen by the server on its very next request, each an audit
/// event with the terminal's actor.
@Suite struct AdminUsersCommandTests {
    /// The JSON object printed on the one line of `text`.
    static func object(_ text: String) throws -> NSDictionary? {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
    }

    @Test func searchShowAndEveryAction() async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock)
        let op = try await server.signedInOperator()
        let tag = "c" + UUID().uuidString.prefix(6).lowercased()
        let (target, pair) = try await server.verifiedAccount(tag)
        let id = server.accountID(pair)
        clock.advance(1)
        let secured = try await server.accountWithSecondFactor(tag)
        #expect(try await server.me(pair.access).status == 200)

        // Search: a line per account, in the nickname's order; pages go on with the printed cursor.
        let byNickname = [(id, target.username), (secured.pair.user.id.lowercasedText, secured.account.username)]
            .sorted { $0.1.lowercased().utf8.lexicographicallyPrecedes($1.1.lowercased().utf8) }.map(\.0)
        let search = try await server.adminCommand(["users", "search", tag.uppercased()])
        #expect(search.status.code == 0, "\(search)")
        let lines = search.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix(byNickname[0]) && lines[1].hasPrefix(byNickname[1]), "\(search.stdout)")
        let line = try #require(lines.first { $0.hasPrefix(id) })
        #expect(line.contains(target.username) && line.contains(target.email) && line.contains("verified"))
        let first = try await server.adminCommand(["users", "search", tag, "--limit", "1", "--mfa", "false"])
        #expect(first.stdout.hasPrefix(id) && !first.stdout.contains("more with"), "\(first)")
        let paged = try await server.adminCommand(["users", "search", tag, "--limit", "1"])
        #expect(paged.stdout.hasPrefix(byNickname[0]), "\(paged)")
        let cursor = try #require(paged.stdout.firstMatch(of: #/more with --after ([A-Za-z0-9_-]+)/#)?.output.1, "\(paged)")
        let next = try await server.adminCommand(["users", "search", tag, "--limit", "1", "--after", String(cursor)])
        #expect(next.stdout.hasPrefix(byNickname[1]) && !next.stdout.contains("more with"), "\(next)")
        // A nickname search's cursor does not go on with a newest-first search.
        let otherOrder = try await server.adminCommand(["users", "search", "--limit", "1", "--after", String(cursor)])
        #expect(otherOrder.status.code == 1 && otherOrder.stderr.contains("--after must be the cursor"), "\(otherOrder)")

        // --json: exactly the admin API's page and account page.
        let json = try await server.adminCommand(["users", "search", tag, "--limit", "1", "--json"])
        #expect(json.status.code == 0 && json.stdout.split(separator: "\n").count == 1, "\(json)")
        let api = try await server.adminSearch("q=\(tag)&limit=1", token: op.access)
        let printed = try Self.object(json.stdout)
        #expect(printed != nil && printed == api.object.map { $0 as NSDictionary }, "\(json.stdout) vs \(api.text)")
        let page = try AccountJSON.makeDecoder().decode(AdminUserPage.self, from: Data(json.stdout.utf8))
        #expect(page.users.map(\.id) == [byNickname[0]] && page.next != nil)
        let shown = try await server.adminCommand(["users", "show", target.email, "--json"])
        let account = try await server.client.send("GET", "/admin/api/users/\(id)", token: op.access)
        let shownObject = try Self.object(shown.stdout)
        #expect(shown.status.code == 0 && shownObject == account.object.map { $0 as NSDictionary }, "\(shown) vs \(account.text)")
        let actionJSON = try await server.adminCommand(["users", "disable", target.username, "--reason", "x", "--json"])
        let stillIn = try await server.me(pair.access).status
        #expect(actionJSON.status.code != 0 && stillIn == 200, "--json goes only with search and show")
        let badFlag = try await server.adminCommand(["users", "search", "--verified", "maybe"])
        #expect(badFlag.status.code == 1 && badFlag.stderr.contains("verified must be true or false"), "\(badFlag)")

        let show = try await server.adminCommand(["users", "show", target.email])
        #expect(show.status.code == 0 && show.stdout.contains(id) && show.stdout.contains("sessions: 1"), "\(show)")
        let unknown = try await server.adminCommand(["users", "show", "nobody-\(tag)"])
        #expect(unknown.status.code == 1 && unknown.stderr.contains("no account is nobody-\(tag)"), "\(unknown)")

        // An action needs its reason; without one nothing happens.
        let noReason = try await server.adminCommand(["users", "disable", target.username])
        #expect(noReason.status.code == 2 && noReason.stderr.contains("needs --reason"), "\(noReason)")
        #expect(try await server.me(pair.access).status == 200)

        // Disable by nickname: the running server refuses the old token on its next request.
        let disabled = try await server.adminCommand(["users", "disable", target.username, "--reason", "abuse report 12", "--actor", "mina"])
        #expect(disabled.status.code == 0 && disabled.stdout.contains("is disabled"), "\(disabled)")
        #expect(try await server.me(pair.access).status == 401)
        let refused = try await server.client.send("POST", "/auth/login", model: LoginRequest(username: target.username, password: target.password))
        #expect(refused.problem?.code == .accountDisabled, "\(refused.text)")
        #expect(try await server.adminCommand(["users", "enable", id, "--reason", "appeal"]).status.code == 0)
        let back = try await server.logIn(target)

        let ended = try await server.adminCommand(["users", "end-sessions", target.email, "--reason", "lost phone"])
        #expect(ended.status.code == 0 && ended.stdout.contains("1 session ended"), "\(ended)")
        #expect(try await server.me(back.access).status == 401)

        let removed = try await server.adminCommand(["users", "remove-second-factor", secured.account.username, "--reason", "lost authenticator"])
        #expect(removed.status.code == 0, "\(removed)")
        #expect(try amr(try await server.logIn(secured.account).access) == ["pwd"])

        let verified = try await server.adminCommand(["users", "resend-verification", target.username, "--reason", "asked"])
        #expect(verified.status.code == 1 && verified.stderr.contains("verified already"), "\(verified)")

        let deleted = try await server.adminCommand(["users", "delete", id, "--reason", "asked by mail"])
        #expect(deleted.status.code == 0 && deleted.stdout.contains("deleted"), "\(deleted)")
        let gone = try await server.client.send("POST", "/auth/login", model: LoginRequest(username: target.username, password: target.password))
        #expect(gone.status == 401)

        // The audit log: the terminal's actor, no request id, the reasons as given.
        let events = try await server.auditEvents(token: op.access).filter { $0.action != "admin_granted" }
        #expect(events.map(\.action) == ["account_deleted", "second_factor_removed", "sessions_ended", "account_enabled", "account_disabled"])
        #expect(events.allSatisfy { $0.actor.hasPrefix("cli:") && $0.requestId == nil })
        #expect(events.last?.actor == "cli:mina" && events.last?.reason == "abuse report 12" && events.last?.targetId == id)
        #expect(events.first?.targetId == id && events[1].targetId == secured.pair.user.id.lowercasedText)

        // The help lists the commands.
        let help = try await runServerCommand(["--help"])
        #expect(help.stdout.contains("admin users search") && help.stdout.contains("remove-second-factor"))
        await server.stop()
    }

    /// `admin users delete` has no Apple key, yet an Apple-linked account's deletion still queues
    /// the revocation of its grant: a server with the key on the same database sends it.
    @Test func aDeletionWithoutTheAppleKeyIsRevokedByAServerThatHasIt() async throws {
        let folder = try TemporaryFolder()
        let context = try await AppleServer.start(folder: folder)
        let (_, _, appleRefresh, pair) = try await context.appleAccount("clidelete")
        await context.server.stop()

        let deleted = try await context.server.adminCommand(["users", "delete", pair.user.id.lowercasedText, "--reason", "asked by mail"])
        #expect(deleted.status.code == 0 && deleted.stdout.contains("deleted"), "\(deleted)")
        #expect(!(deleted.stdout + deleted.stderr).contains("apple_revoke_skipped"), "\(deleted)")
        #expect(context.apple.revokeAttempts == 0, "the command line has no key to revoke with")

        let keyed = try await ServerProcess.start(in: folder, clock: context.clock, context.apple.serverArguments)
        try await eventually("the grant is revoked") {
            context.apple.revoked.contains { $0.token == appleRefresh && $0.clientID == AppleStandIn.clientID }
        }
        await keyed.stop()
        await context.apple.stop()
        #expect(keyed.logs.contains("\"apple_grant_revoked\""))
    }
}
