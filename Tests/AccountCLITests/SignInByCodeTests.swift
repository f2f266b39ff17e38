import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// The terminal client keeps no password after a sign-up: the verified code signs in. Logging out
/// signs out here even when the server cannot be told, and says so.
@Suite("Sign-in by code")
struct SignInByCodeTests {
    @Test("verify signs a fresh sign-up in, with no login by password")
    func verifySignsIn() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let (user, code) = try await TestUser.unverified(cli, server)
        #expect(cli.storedSessions.isEmpty)
        #expect(cli.storedSignUps.count == 1, "the sign-up's token waits for the code in the credentials file")

        let verify = try await cli.run(["verify", "--email", user.email, "--code", code])
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout == "\(user.email) is verified. Signed in as \(user.username) (\(user.email)).\n", "\(verify)")
        #expect(cli.storedSignUps.isEmpty, "used, then forgotten")
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.status == 0 && whoami.stdout.contains(user.username), "\(whoami)")

        let text = try await server.client.send("GET", "/metrics").text
        #expect(text.contains(#"account_logins_total{outcome="signup_verified"} 1"#), "\(text)")
        #expect(text.contains(#"account_logins_total{outcome="success"} 0"#), "no password was sent to log in")
        await server.stop()
    }

    @Test("--json prints the verification without its session's tokens")
    func verifyJSONHasNoTokens() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let (user, code) = try await TestUser.unverified(cli, server)
        let verify = try await cli.run(["--json", "verify", "--email", user.email, "--code", code])
        #expect(verify.status == 0, "\(verify)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        #expect(object["verified"] as? Bool == true && object["session"] == nil, "\(verify.stdout)")
        await server.stop()
    }

    @Test("logout without the server signs out here, says so and exits 3")
    func logoutUnreachable() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = try await TestUser.verified(cli, server)
        #expect(try await user.logIn(cli).status == 0)
        #expect(!cli.storedSessions.isEmpty)
        await server.stop()

        let logout = try await cli.run(["logout"])
        #expect(logout.status == 3, "\(logout)")
        #expect(logout.stderr.contains("Signed out on this device, but the server could not be told"), "\(logout)")
        #expect(logout.stderr.contains("Cannot reach the server at \(server.baseURL.absoluteString)"), "\(logout)")
        #expect(cli.storedSessions.isEmpty, "the session is gone here all the same")
        let again = try await cli.run(["logout"])
        #expect(again.status == 0 && again.stderr == "Not signed in; nothing to sign out of.\n", "\(again)")
    }

    @Test("after a stranger's newer sign-up of the address, verify refuses the code, says so and signs nobody in")
    func supersededScripted() async throws {
        let server = try await ServerProcess.start(["--mail-interval", "0"])
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let (user, _) = try await TestUser.unverified(cli, server)
        try await StrangerSignUp.send(to: server, email: user.email)
        let code = try await StrangerSignUp.code(2, to: user.email, on: server)

        let verify = try await cli.run(["--json", "verify", "--email", user.email, "--code", code])
        #expect(verify.status == 1, "\(verify)")
        #expect(verify.stderr == "This sign-up was replaced by a newer one for this address; sign up again.\n", "\(verify)")
        #expect(verify.stdout.contains(#""code":"signup_superseded""#), "\(verify)")
        #expect(cli.storedSessions.isEmpty && cli.storedSignUps.isEmpty)
        await server.stop()
    }

    @Test("at a terminal, a superseded sign-up asks for the password again and signs up with the same details")
    func supersededAtTheTerminal() async throws {
        let server = try await ServerProcess.start(["--mail-interval", "0"])
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = TestUser()
        let terminal = try cli.terminal(["signup", "--username", user.username, "--email", user.email, "--mbti", "intp"])
        try await terminal.waitFor("Password: ")
        terminal.type(user.password)
        try await terminal.waitFor("Password (again): ")
        terminal.type(user.password)
        try await terminal.waitFor("Code from the email: ")
        _ = try await StrangerSignUp.code(1, to: user.email, on: server)
        try await StrangerSignUp.send(to: server, email: user.email)
        terminal.type(try await StrangerSignUp.code(2, to: user.email, on: server))
        try await terminal.waitFor("This sign-up was replaced by a newer one for this address; sign up again.")
        try await terminal.waitFor("Password: ")
        terminal.type(user.password)
        try await terminal.waitFor("Password (again): ")
        terminal.type(user.password)
        try await terminal.waitFor("Code from the email: ")
        terminal.type(try await StrangerSignUp.code(3, to: user.email, on: server))
        try await terminal.waitFor("Signed in as \(user.username) (\(user.email)).")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.transcript)")
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.status == 0 && whoami.stdout.contains(user.username), "\(whoami)")
        await server.stop()
    }
}

/// Someone else signing up an address the test's user signed up, with their own nickname and password.
enum StrangerSignUp {
    static func send(to server: ServerProcess, email: String) async throws {
        var request = URLRequest(url: server.baseURL.appendingPathComponent("auth/signup"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let name = "stranger_" + UUID().uuidString.prefix(6).lowercased()
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "username": name, "email": email, "password": "stranger horse battery", "mbti": "estp",
        ])
        let (_, response) = try await URLSession.shared.data(for: request)
        try #require((response as? HTTPURLResponse)?.statusCode == 202)
    }

    /// The code of the `number`th message to `email`, once delivered.
    static func code(_ number: Int, to email: String, on server: ServerProcess) async throws -> String {
        let messages = try await server.mail.arrived(number, to: email)
        guard let code = MailFolder.code(in: messages[number - 1]) else { throw TestFailure("no code in message \(number) to \(email)") }
        return code
    }
}
