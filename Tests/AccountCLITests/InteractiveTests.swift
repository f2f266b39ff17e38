import AccountAPI
import Foundation
import TestSupport
import Testing

/// `account signup` at a terminal: prompts, passwords without echo, MBTI from the numbered list.
@Suite("Interactive")
struct InteractiveTests {
    @Test("signup through a pseudo-terminal never shows the password")
    func signUpAtTerminal() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = TestUser()
        let terminal = try cli.terminal(["signup"])

        try await terminal.waitFor("Nickname: ")
        terminal.type(user.username)
        try await terminal.waitFor("Email: ")
        terminal.type(user.email)
        try await terminal.waitFor("Password: ")
        terminal.type(user.password)
        try await terminal.waitFor("Password (again): ")
        terminal.type(user.password)
        try await terminal.waitFor("11) ENFP")
        try await terminal.waitFor("Choose 1-16 or type it: ")
        terminal.type("11")
        try await terminal.waitFor("Code from the email: ")
        let code = try await server.mail.code(to: user.email)
        terminal.type(code)
        try await terminal.waitFor("Signed in as \(user.username)")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.transcript)")

        let screen = terminal.transcript
        // Echo was on for the other answers, so the password's absence means echo was off for it.
        #expect(screen.contains(user.username) && screen.contains(user.email) && screen.contains(code))
        #expect(!screen.contains(user.password), "the password was echoed:\n\(screen)")
        #expect(!screen.contains(String(user.password.prefix(6))), "part of the password was echoed:\n\(screen)")

        let whoami = try await cli.run(["whoami", "--json"])
        #expect(whoami.status == 0, "\(whoami)")
        let me = try AccountJSON.makeDecoder().decode(User.self, from: Data(whoami.stdout.utf8))
        #expect(me.mbti == .enfp && me.emailVerified && me.username == user.username)
        await server.stop()
    }
}
