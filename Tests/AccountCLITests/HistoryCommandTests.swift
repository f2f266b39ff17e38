import AccountAPI
import Foundation
import TestSupport
import Testing

/// `account history` through the real binary against the real server: the account's security
/// history as a table in the client's language, `!` on failed attempts, and `--json` exactly as
/// the API sends it.
@Suite("account history")
struct HistoryCommandTests {
    @Test("sign-ins, a failed attempt and a password change, newest first; --json, --limit and --all")
    func history() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        var user = try await TestUser.verified(cli, server)
        #expect(try await user.logIn(cli).status == 0)
        // A wrong password from another client: a failed attempt the owner sees.
        let wrong = try await server.client.send("POST", "/auth/login", json: ["username": user.username, "password": "not the password 1"])
        #expect(wrong.status == 401)
        let newPassword = "green kettle meadow 77"
        #expect(try await cli.run(["passwd", "--password-stdin"], stdin: "\(user.password)\n\(newPassword)\n").status == 0)
        user.password = newPassword

        let json = try await cli.run(["history", "--json"])
        #expect(json.status == 0, "\(json)")
        let page = try AccountJSON.makeDecoder().decode(SecurityEventPage.self, from: Data(json.stdout.utf8))
        // verify (sign-in with the code), logout, login, the wrong password, the change.
        #expect(page.events.map(\.type) == ["password_changed", "login_failed", "login_succeeded", "session_ended", "login_succeeded"], "\(json.stdout)")
        #expect(page.events.last?.detail?["method"] == "email_code")
        #expect(page.events.allSatisfy { $0.clientAddress == "127.0.0.1" })
        // The terminal client's own User-Agent names the device (`account 1.x · host · system`).
        #expect(page.events.first?.deviceName?.hasPrefix("account ") == true, "\(page.events)")
        #expect(page.next == nil)
        // Exactly the API's JSON: re-encoding what was decoded gives the same text back.
        #expect(json.stdout == String(decoding: try AccountJSON.makeEncoder().encode(page), as: UTF8.self) + "\n")

        let table = try await cli.run(["history"])
        #expect(table.status == 0, "\(table)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("event") == true && lines.count == 6, "\(table.stdout)")
        #expect(lines[1].hasPrefix("  ") && lines[1].contains("Password changed"), "\(table.stdout)")
        #expect(lines[2].hasPrefix("! ") && lines[2].contains("Wrong password entered") && lines[2].contains("127.0.0.1"), "\(table.stdout)")
        #expect(lines[5].contains("Signed in with an email code"), "\(table.stdout)")

        var korean = cli
        korean.locale = ["LANG": "ko_KR.UTF-8"]
        let inKorean = try await korean.run(["history"])
        #expect(inKorean.stdout.contains("비밀번호를 변경했어요") && inKorean.stdout.contains("잘못된 비밀번호가 입력됐어요"), "\(inKorean)")

        let limited = try await cli.run(["history", "--limit", "2"])
        #expect(limited.stdout.split(separator: "\n").count == 4, "header, two events, the hint: \(limited.stdout)")
        #expect(limited.stdout.contains("account history --all"))
        let all = try await cli.run(["history", "--limit", "2", "--all", "--json"])
        #expect(try AccountJSON.makeDecoder().decode(SecurityEventPage.self, from: Data(all.stdout.utf8)) == page)
        let bad = try await cli.run(["history", "--limit", "0"])
        #expect(bad.status == 2 && bad.stderr.contains("--limit"), "\(bad)")

        #expect(try await cli.run(["logout"]).status == 0)
        let signedOut = try await cli.run(["history"])
        #expect(signedOut.status == 1 && signedOut.stderr.contains("Please sign in first."), "\(signedOut)")
        await server.stop()
    }
}
