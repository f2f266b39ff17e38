import Foundation
import TestSupport
import Testing

/// The session file: private while signed in, emptied by logout; `logout --all` ends other devices too.
@Suite("Credentials file")
struct CredentialsFileTests {
    @Test("login writes a 0600 file; logout leaves none or an empty one")
    func fileLifecycle() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = try await TestUser.verified(cli, server)
        #expect(cli.storedSessions.isEmpty, "verified, then logged out")
        let login = try await user.logIn(cli)
        try #require(login.status == 0, "\(login)")
        let attributes = try FileManager.default.attributesOfItem(atPath: cli.credentialsFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try Data(contentsOf: cli.credentialsFile).count > 100)
        // One session, named after the server it is for.
        #expect(cli.storedSessions == [server.baseURL.absoluteString + "/session"])

        let logout = try await cli.run(["logout"])
        #expect(logout.status == 0, "\(logout)")
        #expect(logout.stdout == "Signed out.\n")
        if FileManager.default.fileExists(atPath: cli.credentialsFile.path) {
            let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: cli.credentialsFile)) as? [String: Any]
            #expect(entries?.isEmpty == true)
        }
        let again = try await cli.run(["logout"])
        #expect(again.status == 0, "logging out twice is nothing to do: \(again)")
        #expect(again.stderr == "Not signed in; nothing to sign out of.\n")
        #expect(again.stdout.isEmpty)
        await server.stop()
    }

    @Test("logout --all signs out another device; plain logout does not")
    func logoutEverywhere() async throws {
        let server = try await ServerProcess.start()
        let laptop = AccountCLI(server: server.baseURL)
        let phone = AccountCLI(server: server.baseURL)
        let tablet = AccountCLI(server: server.baseURL)
        defer { [laptop, phone, tablet].forEach { $0.cleanUp() } }
        let user = try await TestUser.verified(laptop, server)
        for device in [laptop, phone, tablet] { try #require(try await user.logIn(device).status == 0) }

        #expect(try await tablet.run(["logout"]).status == 0)
        #expect(try await phone.run(["whoami"]).status == 0, "a local logout leaves other devices signed in")

        let everywhere = try await laptop.run(["logout", "--all"])
        #expect(everywhere.status == 0, "\(everywhere)")
        let phoneAfter = try await phone.run(["whoami"])
        #expect(phoneAfter.status == 1, "\(phoneAfter)")
        #expect(try await laptop.run(["whoami"]).status == 1)
        await server.stop()
    }
}
