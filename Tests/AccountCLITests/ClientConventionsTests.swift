import AccountAPI
import Foundation
import TestSupport
import Testing

/// What a person or a script sees around the commands: JSON errors, the server's address when it
/// cannot be reached, local times, the user's language, suggestions, and where files go.
@Suite("Client conventions")
struct ClientConventionsTests {
    @Test("--json errors are one JSON object on stdout, with the same words on stderr")
    func jsonErrors() async throws {
        let port = try closedLoopbackPort()
        let cli = AccountCLI(server: URL(string: "http://127.0.0.1:\(port)")!)
        defer { cli.cleanUp() }
        let unreachable = try await cli.run(["--json", "login", "--username", "nobody", "--password-stdin"], stdin: "pw pw pw pw\n")
        #expect(unreachable.status == 3)
        let error = try #require(try Self.error(unreachable.stdout), "\(unreachable)")
        #expect(error["code"] as? String == "unreachable")
        #expect(error["server"] as? String == "http://127.0.0.1:\(port)")
        #expect((error["message"] as? String)?.contains("http://127.0.0.1:\(port)") == true)
        #expect(unreachable.stderr.contains("Cannot reach the server at http://127.0.0.1:\(port)."))

        let usage = try await cli.run(["--json", "frobnicate"])
        #expect(usage.status == 2)
        #expect(try Self.error(usage.stdout)?["code"] as? String == "usage")

        let notSignedIn = try await cli.run(["--json", "whoami"])
        #expect(notSignedIn.status == 1)
        #expect(try Self.error(notSignedIn.stdout)?["code"] as? String == "not_signed_in")
    }

    @Test("refusals from the server keep their code and fields in JSON")
    func jsonRefusals() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = try await TestUser.verified(cli, server)
        let wrong = try await cli.run(["--json", "login", "--username", user.username, "--password-stdin"], stdin: "wrong password 123\n")
        #expect(wrong.status == 1)
        let error = try #require(try Self.error(wrong.stdout), "\(wrong)")
        #expect(error["code"] as? String == "invalid_credentials")
        #expect(error["message"] as? String == Messages.detail(.invalidCredentials, .en))

        let taken = try await cli.run(
            ["--json", "signup", "--username", user.username, "--email", "new.\(user.email)", "--mbti", "enfp", "--password-stdin"],
            stdin: "another long phrase 9\n")
        #expect(taken.status == 1)
        #expect(try Self.error(taken.stdout)?["code"] as? String == "username_taken", "\(taken)")
        await server.stop()
    }

    @Test("times are shown in the local time zone; JSON keeps RFC 3339 UTC")
    func localTimes() async throws {
        let server = try await ServerProcess.start()
        var cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = try await TestUser.verified(cli, server)
        try #require(try await user.logIn(cli).status == 0)
        cli.extraEnvironment = ["TZ": "Asia/Seoul"]
        let me = try AccountJSON.makeDecoder().decode(User.self, from: Data(try await cli.run(["whoami", "--json"]).stdout.utf8))
        let seoul = Self.format(me.createdAt, "Asia/Seoul")
        #expect(seoul != Self.format(me.createdAt, "UTC"))
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.stdout.split(separator: "\n").contains { $0.hasPrefix("joined") && $0.hasSuffix(seoul) }, "\(whoami)")

        let list = try AccountJSON.makeDecoder().decode(SessionList.self, from: Data(try await cli.run(["sessions", "--json"]).stdout.utf8))
        let current = try #require(list.sessions.first)
        let table = try await cli.run(["sessions"])
        #expect(table.stdout.contains("* \(current.id.uuidString.lowercased())  \(Self.format(current.lastUsedAt, "Asia/Seoul"))"), "\(table)")
        cli.extraEnvironment = ["TZ": "America/New_York"]
        #expect(try await cli.run(["whoami"]).stdout.contains(Self.format(me.createdAt, "America/New_York")))
        await server.stop()
    }

    @Test("the client names its version and host, and the sessions list shows it")
    func userAgent() async throws {
        let server = try await ServerProcess.start()
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = try await TestUser.verified(cli, server)
        try #require(try await user.logIn(cli).status == 0)
        let version = try await cli.run(["--version"])
        #expect(version.status == 0)
        let number = version.stdout.replacingOccurrences(of: "account ", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(number.split(separator: ".").count == 3, "\(version)")
        let list = try AccountJSON.makeDecoder().decode(SessionList.self, from: Data(try await cli.run(["sessions", "--json"]).stdout.utf8))
        let host = ProcessInfo.processInfo.hostName
        let agent = try #require(list.sessions.first?.userAgent)
        #expect(agent.hasPrefix("account/\(number) (\(host); Linux "), "\(agent)")
        let table = try await cli.run(["sessions"])
        #expect(table.stdout.contains("account \(number) · \(host) · Linux "), "\(table)")
        await server.stop()
    }

    @Test("LANG=ko gives Korean field names, help and prompts")
    func koreanLabels() async throws {
        let server = try await ServerProcess.start()
        var cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        cli.locale = ["LANG": "ko_KR.UTF-8"]
        let refused = try await cli.run(
            ["signup", "--username", "a", "--email", "x@example.com", "--mbti", "enfp", "--password-stdin"], stdin: "long enough phrase 1\n")
        #expect(refused.status == 1)
        #expect(refused.stderr == "닉네임: 닉네임은 2자 이상이어야 해요.\n", "\(refused)")
        #expect(!refused.stderr.contains("username"))
        let help = try await cli.run(["--help"])
        #expect(help.stdout.contains("사용법: account") && help.stdout.contains("비밀번호를 바꿔요"), "\(help)")
        let commandHelp = try await cli.run(["signup", "--help"])
        #expect(commandHelp.stdout.contains("--username 닉네임"))
        let usage = try await cli.run(["whoami", "--emial", "x"])
        #expect(usage.stderr.contains("알 수 없는 옵션 '--emial'. '--email'을 찾으셨나요?"), "\(usage)")

        let user = TestUser()
        let terminal = try cli.terminal(["signup"])
        try await terminal.waitFor("닉네임: ")
        terminal.type("a")
        try await terminal.waitFor("닉네임은 2자 이상이어야 해요.")
        try await terminal.waitFor("닉네임: ")
        terminal.type(user.username)
        try await terminal.waitFor("이메일: ")
        terminal.type(user.email)
        try await terminal.waitFor("비밀번호: ")
        terminal.type(user.password)
        try await terminal.waitFor("비밀번호 확인: ")
        terminal.type(user.password)
        try await terminal.waitFor("번호(1-16)나 유형을 입력하세요: ")
        terminal.type("ENFP")
        try await terminal.waitFor("메일로 받은 코드: ")
        terminal.type(try await server.mail.code(to: user.email))
        try await terminal.waitFor("\(KoreanParticle.direction.attached(to: user.username)) 로그인했어요 (\(user.email)).")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.transcript)")
        await server.stop()
    }

    @Test("an unknown command or option suggests the nearest one", arguments: [
        (["singup"], "Did you mean 'signup'?"),
        (["whomai"], "Did you mean 'whoami'?"),
        (["sess"], "Did you mean 'sessions'?"),
        (["logout", "--al"], "Did you mean '--all'?"),
        (["login", "--usrename", "x"], "Did you mean '--username'?"),
        (["--emial", "x", "verify"], "Did you mean '--email'?"),
        (["verify", "--resnd"], "Did you mean '--resend'?"),
        (["--jsn", "whoami"], "Did you mean '--json'?"),
    ])
    func suggestions(arguments: [String], hint: String) async throws {
        let cli = AccountCLI(server: URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!)
        defer { cli.cleanUp() }
        let result = try await cli.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(hint), "\(result)")
    }

    @Test("nothing close is nothing suggested")
    func noSuggestion() async throws {
        let cli = AccountCLI(server: URL(string: "http://127.0.0.1:1")!)
        let result = try await cli.run(["xyzzy"])
        #expect(result.stderr.contains("unknown command 'xyzzy'") && !result.stderr.contains("Did you mean"), "\(result)")
    }

    @Test("without --config-dir the session goes under $XDG_CONFIG_HOME, else $HOME/.config, and nothing else is written there")
    func homeAndXDG() async throws {
        let server = try await ServerProcess.start()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cli-home-\(UUID().uuidString)")
        let xdg = FileManager.default.temporaryDirectory.appendingPathComponent("cli-xdg-\(UUID().uuidString)")
        for folder in [home, xdg] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        defer { for folder in [home, xdg] { try? FileManager.default.removeItem(at: folder) } }
        var cli = AccountCLI(server: server.baseURL)
        let user = try await TestUser.verified(cli, server)
        cli.setsConfigDirectory = false
        cli.extraEnvironment = ["HOME": home.path, "XDG_CONFIG_HOME": ""]
        try #require(try await user.logIn(cli).status == 0)
        #expect(try await cli.run(["whoami"]).status == 0)
        #expect(try await cli.run(["sessions"]).status == 0)
        #expect(Self.files(under: home) == [".config/mbti-playground/credentials.json"], "only the session file, no caches or cookies")

        cli.extraEnvironment = ["HOME": home.path, "XDG_CONFIG_HOME": xdg.path]
        #expect(try await cli.run(["whoami"]).status == 1, "a different folder holds no session")
        try #require(try await user.logIn(cli).status == 0)
        #expect(Self.files(under: xdg) == ["mbti-playground/credentials.json"])
        await server.stop()
    }

    static func error(_ stdout: String) throws -> [String: Any]? {
        let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        return object?["error"] as? [String: Any]
    }

    static func format(_ date: Date, _ zone: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// Every regular file below `folder`, relative, sorted.
    static func files(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        var found: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                found.append(String(url.path.dropFirst(folder.path.count + 1)))
            }
        }
        return found.sorted()
    }
}
