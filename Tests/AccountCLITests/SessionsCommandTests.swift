import AccountAPI
import Foundation
import TestSupport
import Testing

/// `account sessions` through the real binary against the real server behind a trusted proxy: the
/// address each session was last used from, as a column in the client's language and as the API's
/// `client_address` with `--json`.
@Suite("account sessions")
struct SessionsCommandTests {
    @Test("each session with the address it was last used from; --json keeps client_address")
    func addresses() async throws {
        let server = try await ServerProcess.start(in: nil, ["--trusted-proxy", "127.0.0.1"])
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = try await TestUser.verified(cli, server)
        #expect(try await user.logIn(cli).status == 0)
        // Another device of the account, forwarded by the proxy from an IPv6 address.
        let other = try await server.client.send(
            "POST", "/auth/login", body: try AccountJSON.makeEncoder().encode(LoginRequest(username: user.username, password: user.password)),
            contentType: "application/json", headers: ["X-Forwarded-For": "2001:db8::42", "User-Agent": "Tablet/2.0"])
        #expect(other.status == 200, "\(other.text)")

        let json = try await cli.run(["sessions", "--json"])
        #expect(json.status == 0, "\(json)")
        let list = try AccountJSON.makeDecoder().decode(SessionList.self, from: Data(json.stdout.utf8))
        #expect(list.sessions.map(\.clientAddress) == ["2001:db8::42", "127.0.0.1"], "\(json.stdout)")
        #expect(json.stdout.contains(#""client_address":"2001:db8::42""#))

        let table = try await cli.run(["sessions"])
        #expect(table.status == 0, "\(table)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(table.stdout)")
        #expect(lines[0].contains("address") && lines[0].contains("device"), "\(table.stdout)")
        let tablet = try #require(list.sessions.first)
        #expect(lines[1].hasPrefix("  \(tablet.id.uuidString.lowercased())") && lines[1].contains("  2001:db8::42  ") && lines[1].hasSuffix("Tablet/2.0"), "\(table.stdout)")
        #expect(lines[2].hasPrefix("* ") && lines[2].contains("  127.0.0.1     ") && lines[2].contains("account "), "padded to the widest: \(table.stdout)")

        var korean = cli
        korean.locale = ["LANG": "ko_KR.UTF-8"]
        #expect(try await korean.run(["sessions"]).stdout.contains("주소"))
        await server.stop()
    }
}
