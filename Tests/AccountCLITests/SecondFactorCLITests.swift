import AccountAPI
import Foundation
import TestSupport
import Testing

/// `account mfa` and a login that needs a second factor, driven through the real `account` binary
/// against the real server, with codes from the tests' own RFC 6238 implementation and the
/// server's clock moved through `--clock-file` (each code in a fresh 30-second step).
@Suite("Second factor")
struct SecondFactorCLITests {
    /// A server on a clock the test moves, and a client of it.
    func start() async throws -> (ServerProcess, TestClock, AccountCLI) {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock)
        return (server, clock, AccountCLI(server: server.baseURL))
    }

    /// A code that is not the authenticator's within a step of the server's time.
    func wrongCode(_ secret: [UInt8], _ clock: TestClock) -> String {
        let near = Set([-30.0, 0, 30].map { TOTPGenerator.code(secret: secret, at: clock.serverNow.addingTimeInterval($0)) })
        return (0...9).map { String(repeating: String($0), count: 6) }.first { !near.contains($0) }!
    }

    func decode<T: Decodable>(_ type: T.Type, _ result: ProgramResult) throws -> T {
        try AccountJSON.makeDecoder().decode(type, from: Data(result.stdout.utf8))
    }

    @Test("enable in two scripted calls, log in with --code and --recovery-code, new codes, passwd, disable")
    func scriptedLifecycle() async throws {
        let (server, clock, cli) = try await start()
        defer { cli.cleanUp() }
        var user = try await TestUser.verified(cli, server)
        #expect(try await user.logIn(cli).status == 0)
        let off = try await cli.run(["mfa"])
        #expect(off.status == 0 && off.stdout.contains("Two-step verification is off"), "\(off)")

        // A first start, in text: the QR code in half blocks, the secret in groups.
        let started = try await cli.run(["mfa", "enable", "--password-stdin"], stdin: user.password + "\n")
        #expect(started.status == 0, "\(started)")
        #expect(started.stdout.contains("▀") || started.stdout.contains("▄"), "no QR code:\n\(started.stdout)")
        #expect(!started.stdout.contains("\u{1B}["), "no colors when the output is not a terminal")
        #expect(started.stderr.contains("account mfa enable --code"))
        let secretLine = try #require(started.stdout.split(separator: "\n").first { $0.hasPrefix("Secret: ") })
        let textSecret = secretLine.dropFirst("Secret: ".count).replacingOccurrences(of: " ", with: "")
        #expect(textSecret.count == 32 && TOTPGenerator.base32Decode(textSecret) != nil)
        #expect(started.stdout.contains("otpauth://totp/"))

        // A second start (JSON) replaces the first secret; its code confirms.
        let json = try await cli.run(["--json", "mfa", "enable", "--password-stdin"], stdin: user.password + "\n")
        #expect(json.status == 0, "\(json)")
        let enrollment = try decode(TOTPEnrollment.self, json)
        #expect(enrollment.secret != textSecret)
        let secret = try #require(TOTPGenerator.base32Decode(enrollment.secret))

        let wrong = try await cli.run(["--json", "mfa", "enable", "--code", wrongCode(secret, clock)])
        #expect(wrong.status == 1, "\(wrong)")
        #expect(wrong.stderr.contains("That code is not right."), "\(wrong)")
        #expect(wrong.stdout.contains(#""code":"code_invalid""#), "\(wrong)")
        let confirmed = try await cli.run(["--json", "mfa", "enable", "--code", TOTPGenerator.code(secret: secret, at: clock.nextStep())])
        #expect(confirmed.status == 0, "\(confirmed)")
        let recovery = try decode(RecoveryCodes.self, confirmed).recoveryCodes
        #expect(recovery.count == 10)
        let status = try await cli.run(["--json", "mfa", "status"])
        #expect(try decode(SecondFactorStatus.self, status) == SecondFactorStatus(totp: true, recoveryCodesLeft: 10))
        let whoami = try await cli.run(["whoami"])
        #expect(whoami.stdout.contains("on (10 recovery codes left)"), "\(whoami)")
        #expect(try await cli.run(["logout"]).status == 0)

        // A login without the code, where it may not be asked for.
        let noCode = try await cli.run(["--json", "login", "--username", user.username, "--password-stdin"], stdin: user.password + "\n")
        #expect(noCode.status == 1, "\(noCode)")
        #expect(noCode.stdout.contains(#""code":"mfa_required""#) && noCode.stderr.contains("--code"), "\(noCode)")
        #expect(cli.storedSessions.isEmpty)
        // A wrong one: status 1 and the authenticator's wording, not the email code's.
        let badCode = try await cli.run(
            ["login", "--username", user.username, "--password-stdin", "--code", wrongCode(secret, clock)], stdin: user.password + "\n")
        #expect(badCode.status == 1, "\(badCode)")
        #expect(badCode.stderr.contains("That code is not right.") && !badCode.stderr.contains("email"), "\(badCode)")
        let malformed = try await cli.run(["login", "--username", user.username, "--password-stdin", "--code", "12ab"], stdin: user.password + "\n")
        #expect(malformed.status == 1 && malformed.stderr.contains("6-digit code"), "refused before sending: \(malformed)")
        // The right one.
        let withCode = try await cli.run(
            ["login", "--username", user.username, "--password-stdin", "--code", TOTPGenerator.code(secret: secret, at: clock.nextStep())],
            stdin: user.password + "\n")
        #expect(withCode.status == 0 && withCode.stdout.contains("Signed in as \(user.username)"), "\(withCode)")
        #expect(try await cli.run(["logout"]).status == 0)
        // A recovery code, typed in capitals.
        let withRecovery = try await cli.run(
            ["login", "--username", user.username, "--password-stdin", "--recovery-code", recovery[0].uppercased()], stdin: user.password + "\n")
        #expect(withRecovery.status == 0, "\(withRecovery)")
        #expect(try decode(SecondFactorStatus.self, try await cli.run(["--json", "mfa"])).recoveryCodesLeft == 9)

        // New recovery codes: the authenticator's code only.
        let byRecovery = try await cli.run(["mfa", "codes", "--password-stdin", "--recovery-code", recovery[1]], stdin: user.password + "\n")
        #expect(byRecovery.status == 2, "\(byRecovery)")
        let codes = try await cli.run(
            ["--json", "mfa", "codes", "--password-stdin", "--code", TOTPGenerator.code(secret: secret, at: clock.nextStep())],
            stdin: user.password + "\n")
        #expect(codes.status == 0, "\(codes)")
        let fresh = try decode(RecoveryCodes.self, codes).recoveryCodes
        #expect(fresh.count == 10 && Set(fresh).isDisjoint(with: recovery))

        // A password change needs the factor too.
        let newPassword = "green kettle meadow 77"
        let passwdNoCode = try await cli.run(["--json", "passwd", "--password-stdin"], stdin: "\(user.password)\n\(newPassword)\n")
        #expect(passwdNoCode.status == 1 && passwdNoCode.stdout.contains(#""code":"mfa_required""#), "\(passwdNoCode)")
        let passwd = try await cli.run(
            ["passwd", "--password-stdin", "--code", TOTPGenerator.code(secret: secret, at: clock.nextStep())], stdin: "\(user.password)\n\(newPassword)\n")
        #expect(passwd.status == 0, "\(passwd)")
        user.password = newPassword

        // Off, with one of the new recovery codes; then the password alone signs in.
        let oldCode = try await cli.run(["mfa", "disable", "--password-stdin", "--recovery-code", recovery[2]], stdin: user.password + "\n")
        #expect(oldCode.status == 1 && oldCode.stderr.contains("recovery code is not right"), "the old set is gone: \(oldCode)")
        let disable = try await cli.run(["mfa", "disable", "--password-stdin", "--recovery-code", fresh[0]], stdin: user.password + "\n")
        #expect(disable.status == 0 && disable.stdout.contains("Two-step verification is off"), "\(disable)")
        #expect(try await cli.run(["logout"]).status == 0)
        #expect(try await user.logIn(cli).status == 0)
        await server.stop()
    }

    @Test("at a terminal: enable asks for the password and the code; login asks for the code again after a wrong one")
    func interactive() async throws {
        let (server, clock, started) = try await start()
        var cli = started
        cli.extraEnvironment["TERM"] = "xterm-256color"
        defer { cli.cleanUp() }
        let user = try await TestUser.verified(cli, server)
        #expect(try await user.logIn(cli).status == 0)

        let enable = try cli.terminal(["mfa", "enable"])
        try await enable.waitFor("Password: ")
        enable.type(user.password)
        try await enable.waitFor("Code from your authenticator app: ")
        let screen = enable.transcript
        if ProcessInfo.processInfo.environment["NO_COLOR"] == nil {
            #expect(screen.contains("\u{1B}[30;47m"), "dark on light on a terminal")
        }
        let secretLine = try #require(screen.split(whereSeparator: \.isNewline).first { $0.hasPrefix("Secret: ") })
        let secret = try #require(TOTPGenerator.base32Decode(secretLine.dropFirst("Secret: ".count).replacingOccurrences(of: " ", with: "")))
        enable.type("12345")
        try await enable.waitFor("Enter the 6-digit code from your authenticator app.")
        enable.type(TOTPGenerator.code(secret: secret, at: clock.nextStep()))
        try await enable.waitFor("Recovery codes")
        #expect(try await enable.exitStatus() == 0, "\(enable.transcript)")
        #expect(try await cli.run(["logout"]).status == 0)

        let login = try cli.terminal(["login", "--username", user.username])
        try await login.waitFor("Password: ")
        login.type(user.password)
        try await login.waitFor("Code from your authenticator app (or a recovery code): ")
        login.type(wrongCode(secret, clock))
        try await login.waitFor("That code is not right.")
        try await login.waitFor("4 tries left.")
        try await login.waitFor("Code from your authenticator app (or a recovery code): ")
        login.type(TOTPGenerator.code(secret: secret, at: clock.nextStep()))
        try await login.waitFor("Signed in as \(user.username)")
        #expect(try await login.exitStatus() == 0, "\(login.transcript)")
        #expect(!login.transcript.contains(user.password))
        await server.stop()
    }

    @Test("mfa's help in both languages, and its usage errors")
    func helpAndUsage() async throws {
        var cli = AccountCLI(server: URL(string: "http://127.0.0.1:9")!)
        defer { cli.cleanUp() }
        let english = try await cli.run(["mfa", "--help"])
        #expect(english.status == 0 && english.stdout.contains("Usage: account mfa [status | enable | disable | codes]"))
        let general = try await cli.run(["--help"])
        #expect(general.stdout.contains("  mfa "), "listed among the commands")
        let login = try await cli.run(["login", "--help"])
        #expect(login.stdout.contains("--recovery-code CODE"))
        cli.locale = ["LANG": "ko_KR.UTF-8"]
        let korean = try await cli.run(["mfa", "--help"])
        #expect(korean.status == 0 && korean.stdout.contains("2단계 인증"), "\(korean)")
        cli.locale = ["LANG": "C.UTF-8"]
        let typo = try await cli.run(["mfa", "enabel"])
        #expect(typo.status == 2 && typo.stderr.contains("Did you mean 'mfa enable'?"), "\(typo)")
        let both = try await cli.run(["mfa", "disable", "--code", "123456", "--recovery-code", "abcde-12345", "--no-input"])
        #expect(both.status == 2 && both.stderr.contains("not both"), "\(both)")
        let stray = try await cli.run(["mfa", "status", "--code", "123456"])
        #expect(stray.status == 2 && stray.stderr.contains("does not apply to 'mfa status'"), "\(stray)")
    }
}
