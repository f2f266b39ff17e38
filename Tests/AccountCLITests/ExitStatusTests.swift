import AccountAPI
import Foundation
import TestSupport
import Testing

/// Exit status 1 (refused, not signed in), 2 (usage) and 3 (unreachable), with their messages.
@Suite("Exit status")
struct ExitStatusTests {
    @Test("a wrong password is refused: status 1, the server's reason on stderr, nothing stored")
    func wrongPassword() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        var user = try await TestUser.verified(cli, server)
        user.password = "not the password 123"
        let login = try await user.logIn(cli)
        #expect(login.status == 1, "\(login)")
        #expect(login.stdout.isEmpty)
        #expect(login.stderr == Messages.detail(.invalidCredentials, .en) + "\n")
        #expect(cli.storedSessions.isEmpty)
        await server.stop()
    }

    @Test("refusals are in Korean when the locale says ko; LC_ALL wins over LANG", arguments: [
        ["LANG": "ko_KR.UTF-8"], ["LANG": "en_US.UTF-8", "LC_ALL": "ko_KR.UTF-8"],
    ])
    func korean(locale: [String: String]) async throws {
        let server = try await ServerProcess.start()
        var cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        var user = try await TestUser.verified(cli, server)
        user.password = "not the password 123"
        cli.locale = locale
        let login = try await user.logIn(cli)
        #expect(login.status == 1, "\(login)")
        #expect(login.stderr == Messages.detail(.invalidCredentials, .ko) + "\n")
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.status == 1)
        #expect(whoami.stderr == "먼저 로그인해 주세요.\n")
        await server.stop()
    }

    @Test("usage errors exit 2 and say what was wrong", arguments: [
        (["whoami", "--bogus"], "unknown option '--bogus'"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["logout", "--username", "x"], "'--username' does not apply to 'logout'"),
        (["login", "--username"], "'--username' needs a value"),
        (["login", "--username", "a", "--email", "b@example.com", "--password-stdin"], "not both"),
        (["login", "--password-stdin"], "missing --username or --email"),
        (["signup", "--username", "abc", "--password-stdin"], "missing --email"),
        (["signup", "--username", "abc", "--email", "a@example.com", "--mbti", "ABCD", "--password-stdin"], "not one of the 16"),
        (["--server", "ftp://example.com", "whoami"], "not an http(s) URL"),
        ([], "Usage: account"),
    ])
    func usage(arguments: [String], message: String) async throws {
        // Nothing listens here: a usage error must be found before any request is made.
        let cli = AccountCLI(server: URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!)
        defer { cli.cleanUp() }
        let result = try await cli.run(arguments, stdin: "secret words 123\n")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }

    @Test("help is printed on stdout with status 0", arguments: [["--help"], ["login", "--help"], ["-h", "passwd"]])
    func help(arguments: [String]) async throws {
        let cli = AccountCLI(server: URL(string: "http://127.0.0.1:1")!)
        let result = try await cli.run(arguments)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Usage: account"))
    }

    @Test("an unreachable server exits 3, in English or Korean")
    func unreachable() async throws {
        let port = try closedLoopbackPort()
        var cli = AccountCLI(server: URL(string: "http://127.0.0.1:1")!)
        defer { cli.cleanUp() }
        let english = try await cli.run(
            ["--server", "http://127.0.0.1:\(port)", "login", "--username", "nobody", "--password-stdin"], stdin: "pw pw pw pw\n")
        #expect(english.status == 3, "\(english)")
        #expect(english.stderr == "Cannot reach the server at http://127.0.0.1:\(port). Check that it is running and that the address is right.\n")
        cli.locale = ["LANG": "ko_KR.UTF-8"]
        let korean = try await cli.run(["--server", "http://127.0.0.1:\(port)", "--no-input", "verify", "--email", "a@example.com", "--resend"])
        #expect(korean.status == 3, "\(korean)")
        #expect(korean.stderr == "서버(http://127.0.0.1:\(port))에 연결할 수 없어요. 서버가 실행 중인지, 주소가 맞는지 확인해 주세요.\n")
    }
}
