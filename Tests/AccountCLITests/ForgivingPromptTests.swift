import AccountAPI
import Foundation
import TestSupport
import Testing

/// The terminal client forgives mistakes: each answer is checked as it is typed and asked again,
/// a wrong code is asked again, and a new code is mailed only when the person says so.
@Suite("Forgiving prompts")
struct ForgivingPromptTests {
    @Test("signup asks again for each answer that breaks a rule, and for a wrong code")
    func signUpAsksAgain() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = TestUser()
        let terminal = try cli.terminal(["signup"])

        try await terminal.waitFor("Nickname: ")
        terminal.type("a")
        try await terminal.waitFor("Use at least 2 characters.")
        try await terminal.waitFor("Nickname: ")
        terminal.type("12345")
        try await terminal.waitFor("not only digits")
        try await terminal.waitFor("Nickname: ")
        terminal.type(user.username)
        try await terminal.waitFor("Email: ")
        terminal.type("not-an-address")
        try await terminal.waitFor("Enter a valid email address.")
        try await terminal.waitFor("Email: ")
        terminal.type(user.email)
        try await terminal.waitFor("Password: ")
        terminal.type("password")
        try await terminal.waitFor("too common")
        try await terminal.waitFor("Password: ")
        terminal.type(user.username + "-secret")
        try await terminal.waitFor("must not contain your nickname")
        try await terminal.waitFor("Password: ")
        terminal.type(user.password)
        try await terminal.waitFor("Password (again): ")
        terminal.type(user.password + "x")
        try await terminal.waitFor("The passwords do not match. Try again.")
        try await terminal.waitFor("Password: ")
        terminal.type(user.password)
        try await terminal.waitFor("Password (again): ")
        terminal.type(user.password)
        try await terminal.waitFor("Choose 1-16 or type it: ")
        terminal.type("17")
        try await terminal.waitFor("Not one of the 16 types.")
        terminal.type("intj")
        try await terminal.waitFor("Code from the email: ")
        let code = try await server.mail.code(to: user.email)
        terminal.type("12345")
        try await terminal.waitFor("Enter the 6 digits from the email.")
        try await terminal.waitFor("Code from the email: ")
        terminal.type(code == "000000" ? "111111" : "000000")
        try await terminal.waitFor(Messages.detail(.codeInvalid, .en))
        try await terminal.waitFor("Code from the email: ")
        terminal.type(code)
        try await terminal.waitFor("Signed in as \(user.username)")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.transcript)")
        #expect(!terminal.transcript.contains(user.password), "echo stays off for passwords")

        let me = try AccountJSON.makeDecoder().decode(User.self, from: Data(try await cli.run(["whoami", "--json"]).stdout.utf8))
        #expect(me.username == user.username && me.mbti == .intj && me.emailVerified)
        #expect(server.mail.messages(to: user.email).count == 1, "a wrong code asks again without mailing a new one")
        await server.stop()
    }

    @Test("a nickname the server finds taken is asked again; the other answers stay")
    func takenNicknameAskedAgain() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let first = try await TestUser.verified(cli, server)
        let user = TestUser()
        let terminal = try cli.terminal(["signup", "--email", user.email, "--mbti", "enfp"])
        try await terminal.waitFor("Nickname: ")
        terminal.type(first.username)
        try await terminal.waitFor("Password: ")
        terminal.type(user.password)
        try await terminal.waitFor("Password (again): ")
        terminal.type(user.password)
        try await terminal.waitFor(Messages.detail(.usernameTaken, .en))
        try await terminal.waitFor("Nickname: ")
        terminal.type(user.username)
        try await terminal.waitFor("Code from the email: ")
        terminal.type(try await server.mail.code(to: user.email))
        try await terminal.waitFor("Signed in as \(user.username) (\(user.email))")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.transcript)")
        await server.stop()
    }

    @Test("a bad option value at a terminal is said and asked for; without a terminal it is refused")
    func badOptionValues() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = TestUser()
        let terminal = try cli.terminal(["signup", "--username", "x", "--email", user.email, "--mbti", "ABCD"])
        try await terminal.waitFor("Use at least 2 characters.")
        try await terminal.waitFor("Nickname: ")
        terminal.type(user.username)
        try await terminal.waitFor("Password: ")
        terminal.type(user.password)
        try await terminal.waitFor("Password (again): ")
        terminal.type(user.password)
        try await terminal.waitFor("'ABCD' is not one of the 16 MBTI types")
        try await terminal.waitFor("Choose 1-16 or type it: ")
        terminal.type("1")
        try await terminal.waitFor("Code from the email: ")
        terminal.type("")
        try await terminal.waitFor("Send a new code to \(user.email)? [y/N] ")
        terminal.type("")
        try await terminal.waitFor("Verify later with: account verify --email \(user.email)")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.transcript)")

        // Scripted, the same mistakes are refused before anything is sent, every field at once.
        let other = TestUser()
        let scripted = try await cli.run(
            ["signup", "--username", "x", "--email", "nope", "--mbti", "enfp", "--password-stdin"], stdin: "password\n")
        #expect(scripted.status == 1, "\(scripted)")
        #expect(scripted.stderr == """
            nickname: Use at least 2 characters.
            email: Enter a valid email address.
            password: This password is too common; choose one that is harder to guess.

            """, "\(scripted)")
        #expect(server.mail.messages(to: other.email).isEmpty)
        await server.stop()
    }

    @Test("verify asks for the code already mailed, again after a wrong one, and mails a new one only when told")
    func verifyAtTheTerminal() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let (user, code) = try await TestUser.unverified(cli, server)
        let terminal = try cli.terminal(["verify", "--email", user.email])
        try await terminal.waitFor("Code from the email: ")
        #expect(!terminal.transcript.contains("A code was sent"), "no new code unless asked")
        terminal.type(code == "000000" ? "111111" : "000000")
        try await terminal.waitFor(Messages.detail(.codeInvalid, .en))
        try await terminal.waitFor("Code from the email: ")
        // Asking for a new code within the minute is refused with the wait; the old code still works.
        terminal.type("")
        try await terminal.waitFor("Send a new code to \(user.email)? [y/N] ")
        terminal.type("y")
        try await terminal.waitFor("Too many requests. Try again in")
        try await terminal.waitFor("Code from the email: ")
        terminal.type(code)
        try await terminal.waitFor("\(user.email) is verified.")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.transcript)")
        #expect(server.mail.messages(to: user.email).count == 1)
        await server.stop()
    }

    @Test("a code spent by wrong tries offers a new one, which then verifies")
    func spentCodeOffersANewOne() async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock)
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let (user, code) = try await TestUser.unverified(cli, server)
        let wrong = code == "000000" ? "111111" : "000000"
        // A minute later on the server's clock: the resend cooldown is over.
        clock.advance(61)
        let terminal = try cli.terminal(["verify", "--email", user.email])
        var spent = false
        for _ in 0..<8 where !spent {
            try await terminal.waitFor("Code from the email: ")
            terminal.type(wrong)
            try await terminal.waitFor("\n")
            try await Task.sleep(for: .milliseconds(300))
            spent = terminal.transcript.contains(Messages.detail(.tooManyAttempts, .en))
        }
        #expect(spent, "\(terminal.transcript)")
        try await terminal.waitFor("Send a new code to \(user.email)? [Y/n] ")
        terminal.type("")
        try await terminal.waitFor("A code was sent to \(user.email)")
        try await terminal.waitFor("Code from the email: ")
        #expect(try await server.mail.arrived(2, to: user.email).count == 2)
        terminal.type(try await server.mail.code(to: user.email))
        try await terminal.waitFor("\(user.email) is verified.")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.transcript)")
        await server.stop()
    }

    @Test("passwd: a wrong current password is said as such and asked again")
    func passwdWrongCurrentPassword() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        var user = try await TestUser.verified(cli, server)
        try #require(try await user.logIn(cli).status == 0)
        let newPassword = "violet orchard tide 58"
        let terminal = try cli.terminal(["passwd"])
        try await terminal.waitFor("Current password: ")
        terminal.type("not my password 99")
        try await terminal.waitFor("New password: ")
        terminal.type(newPassword)
        try await terminal.waitFor("New password (again): ")
        terminal.type(newPassword)
        try await terminal.waitFor("The current password is wrong.")
        try await terminal.waitFor("Current password: ")
        terminal.type(user.password)
        try await terminal.waitFor("Password changed.")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.transcript)")
        #expect(!terminal.transcript.contains(Messages.detail(.invalidCredentials, .en)), "not the login text")
        user.password = newPassword
        #expect(try await user.logIn(cli).status == 0)
        await server.stop()
    }

    @Test("passwd checks the new password with the rules and refuses the current one before sending")
    func passwdChecksTheNewPassword() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        var user = try await TestUser.verified(cli, server)
        try #require(try await user.logIn(cli).status == 0)
        let newPassword = "violet orchard tide 58"
        let terminal = try cli.terminal(["passwd"])
        try await terminal.waitFor("Current password: ")
        terminal.type(user.password)
        try await terminal.waitFor("New password: ")
        terminal.type(user.password)
        try await terminal.waitFor("The new password is the same as the current one; choose another.")
        try await terminal.waitFor("New password: ")
        terminal.type("abc")
        try await terminal.waitFor("Use at least 8 characters.")
        try await terminal.waitFor("New password: ")
        terminal.type(user.username + " is me")
        try await terminal.waitFor("must not contain your nickname")
        try await terminal.waitFor("New password: ")
        terminal.type(newPassword)
        try await terminal.waitFor("New password (again): ")
        terminal.type(newPassword)
        try await terminal.waitFor("Password changed.")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.transcript)")
        user.password = newPassword
        #expect(try await user.logIn(cli).status == 0)

        // Scripted: the same checks refuse before anything is sent, and a wrong current password is named.
        let same = try await cli.run(["passwd", "--password-stdin"], stdin: "\(newPassword)\n\(newPassword)\n")
        #expect(same.status == 1, "refused like the server refuses a value: \(same)")
        #expect(same.stderr == "new password: The new password is the same as the current one; choose another.\n", "\(same)")
        let weak = try await cli.run(["--json", "passwd", "--password-stdin"], stdin: "\(newPassword)\npassword\n")
        #expect(weak.status == 1, "\(weak)")
        #expect(weak.stderr.contains("new password: This password is too common"), "\(weak)")
        let error = try #require(try ClientConventionsTests.error(weak.stdout), "\(weak)")
        #expect(error["code"] as? String == "validation_failed")
        #expect(((error["fields"] as? [String: Any])?["new_password"] as? [[String: Any]])?.first?["code"] as? String == "too_common")
        let wrong = try await cli.run(["passwd", "--password-stdin"], stdin: "not my password 99\nsilver harbor lamp 31\n")
        #expect(wrong.status == 1, "\(wrong)")
        #expect(wrong.stderr == "The current password is wrong.\n", "\(wrong)")
        #expect(try await user.logIn(cli).status == 0, "nothing changed")
        await server.stop()
    }
}
