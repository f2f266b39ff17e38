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

        let verify = try await cli.run(["verify", "--email", user.email, "--code", code])
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stdout == "\(user.email) is verified. Signed in as \(user.username) (\(user.email)).\n", "\(verify)")
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
}
