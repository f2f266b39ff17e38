import AccountAPI
import Foundation
import TestSupport
import Testing

/// `account passwd` with a wrong current password: the server's 403 is a wrong password, not a
/// lost session, so the message says which password and the sign-in is kept.
@Suite("passwd refusals")
struct PasswdRefusalTests {
    @Test("a wrong current password says so, exits 1 and keeps the session; repeated ones back off")
    func wrongCurrentPassword() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = try await TestUser.verified(cli, server)
        #expect(try await user.logIn(cli).status == 0)

        let passwd = try await cli.run(["passwd", "--password-stdin"], stdin: "not the password 123\nanother long passphrase 42\n")
        #expect(passwd.status == 1, "\(passwd)")
        #expect(passwd.stderr == "The current password is wrong.\n")
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.status == 0, "\(whoami)")

        for index in 0..<4 {
            _ = try await cli.run(["passwd", "--password-stdin"], stdin: "wrong \(index) password\nanother long passphrase 42\n")
        }
        let backedOff = try await cli.run(["passwd", "--password-stdin"], stdin: "\(user.password)\nanother long passphrase 42\n")
        #expect(backedOff.status == 1)
        #expect(backedOff.stderr.hasPrefix("Too many requests. Try again in "), "\(backedOff.stderr)")
        #expect(try await cli.run(["whoami"]).status == 0)
        await server.stop()
    }
}
