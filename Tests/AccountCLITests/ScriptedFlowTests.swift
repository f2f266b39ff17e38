import AccountAPI
import Foundation
import TestSupport
import Testing

/// The whole account flow driven through `account`'s flags and `--password-stdin`, as a script would.
@Suite("Scripted flow")
struct ScriptedFlowTests {
    @Test("signup → verify (signed in) → logout → login → whoami → sessions → passwd → login → logout")
    func wholeFlow() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        var user = TestUser()

        let signUp = try await cli.run(
            ["--json", "signup", "--username", user.username, "--email", user.email, "--mbti", "enfp", "--password-stdin"],
            stdin: user.password + "\n")
        #expect(signUp.status == 0, "\(signUp)")
        let accepted = try AccountJSON.makeDecoder().decode(SignUpAccepted.self, from: Data(signUp.stdout.utf8))
        #expect(accepted.email == user.email)
        #expect(signUp.stderr.contains("code was sent to \(user.email)"))

        let code = try await server.mail.code(to: user.email)
        let verify = try await cli.run(["verify", "--email", user.email, "--code", code])
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout.contains("\(user.email) is verified. Signed in as \(user.username)"), "\(verify)")
        // The code signed in (the sign-up was a moment ago): no password was needed.
        let signedIn = try await cli.run(["whoami"])
        #expect(signedIn.status == 0, "\(signedIn)")
        #expect(try await cli.run(["logout"]).status == 0)

        let login = try await user.logIn(cli)
        #expect(login.status == 0, "\(login)")
        #expect(login.stdout.contains("Signed in as \(user.username)"))

        let whoami = try await cli.run(["whoami", "--json"])
        #expect(whoami.status == 0, "\(whoami)")
        let me = try AccountJSON.makeDecoder().decode(User.self, from: Data(whoami.stdout.utf8))
        #expect(me.username == user.username && me.email == user.email && me.mbti == .enfp && me.emailVerified)
        // Exactly the API's User JSON: re-encoding what was decoded gives the same text back.
        let reencoded = String(decoding: try AccountJSON.makeEncoder().encode(me), as: UTF8.self)
        #expect(whoami.stdout == reencoded + "\n")

        let sessions = try await cli.run(["sessions", "--json"])
        #expect(sessions.status == 0, "\(sessions)")
        let list = try AccountJSON.makeDecoder().decode(SessionList.self, from: Data(sessions.stdout.utf8))
        #expect(list.sessions.count == 1)
        #expect(list.sessions.first?.current == true)
        let table = try await cli.run(["sessions"])
        let current = try #require(list.sessions.first)
        #expect(table.stdout.contains("* \(current.id.uuidString.lowercased())"), "\(table)")

        let newPassword = "green kettle meadow 77"
        let passwd = try await cli.run(["passwd", "--password-stdin"], stdin: "\(user.password)\n\(newPassword)\n")
        #expect(passwd.status == 0, "\(passwd)")
        #expect(try await user.logIn(cli).status == 1)
        user.password = newPassword
        #expect(try await user.logIn(cli).status == 0)

        let logout = try await cli.run(["--json", "logout"])
        #expect(logout.status == 0, "\(logout)")
        #expect(logout.stdout == #"{"ok":true}"# + "\n")
        let after = try await cli.run(["whoami"])
        #expect(after.status == 1)
        #expect(after.stderr.contains("Please sign in first."))
        await server.stop()
    }

    @Test("verify mails a new code only with --resend; a second request within the cooldown is refused")
    func verifyRequestsCodeOnlyWhenAsked() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        // The server answers alike for any address, so a fresh one shows the request path.
        let fresh = TestUser()
        let request = try await cli.run(["--json", "--no-input", "verify", "--email", fresh.email, "--resend"])
        #expect(request.status == 0, "\(request)")
        #expect(request.stderr.contains("A code was sent to \(fresh.email)"))
        let sent = try AccountJSON.makeDecoder().decode(EmailCodeSent.self, from: Data(request.stdout.utf8))
        #expect(sent.email == fresh.email)

        let user = TestUser()
        let signUp = try await cli.run(
            ["signup", "--username", user.username, "--email", user.email, "--mbti", "istj", "--password-stdin"],
            stdin: user.password + "\n")
        try #require(signUp.status == 0, "\(signUp)")
        _ = try await server.mail.code(to: user.email)
        // Without --code and without --resend there is nothing to do, and nothing is requested.
        let nothing = try await cli.run(["--no-input", "verify", "--email", user.email])
        #expect(nothing.status == 2, "\(nothing)")
        #expect(nothing.stderr.contains("missing --code (add --resend to have a new code mailed)"))
        // Sign-up just mailed a code, so another one within the minute is refused with the wait.
        let again = try await cli.run(["--no-input", "verify", "--email", user.email, "--resend"])
        #expect(again.status == 1, "\(again)")
        #expect(again.stderr.contains("Too many requests. Try again in"), "\(again)")
        #expect(server.mail.messages(to: user.email).count == 1, "only the sign-up's code was mailed")
        await server.stop()
    }
}
