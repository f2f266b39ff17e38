import AccountAPI
import Foundation
import TestSupport
import Testing

/// The step-up proof at the terminal, through the real `account` binary against the real server:
/// an account that proves its changes with a passkey (one added from another device) is sent to
/// the app before any password is asked, in words and in `--json`.
@Suite("Step-up at the terminal")
struct StepUpCLITests {
    static let relyingParty = ["--webauthn-rp-id", "example.com", "--webauthn-origin", "https://example.com"]

    /// Adds a software passkey to `user`'s account over HTTP, as an app on another device does
    /// (its own login; the account's password as the step-up proof).
    func addPasskey(for user: TestUser, on server: ServerProcess) async throws {
        let login = try await server.client.send("POST", "/auth/login", model: LoginRequest.identifier(user.username, password: user.password))
        let token = try login.decode(TokenPair.self).access
        let reply = try await server.client.send("POST", "/auth/passkeys/register/options", token: token)
        let options = try reply.decode(PasskeyCreationOptions.self)
        let passkey = SoftwareAuthenticator(userHandle: try #require(Base64URL.decode(options.user.id)))
        let made = passkey.register(
            challenge: try #require(Base64URL.decode(options.challenge)), SoftwareAuthenticator.Ceremony(rpID: "example.com", origin: "https://example.com"))
        let added = try await server.client.send(
            "POST", "/auth/passkeys/register", json: ["name": "iPhone", "credential": made.json, "password": user.password], token: token)
        try #require(added.status == 201, "register: \(added.status) \(added.text)")
    }

    @Test("passwd and mfa enable send an account that proves itself with a passkey to the app")
    func aPasskeyAccountIsSentToTheApp() async throws {
        let server = try await ServerProcess.start(Self.relyingParty)
        let cli = AccountCLI(server: server.baseURL)
        defer { cli.cleanUp() }
        let user = try await TestUser.verified(cli, server)
        #expect(try await user.logIn(cli).status == 0)
        try await addPasskey(for: user, on: server)

        let sentence = "This account confirms changes like this with one of its passkeys, which a terminal cannot use: make the change in the app.\n"
        for arguments in [["passwd", "--password-stdin"], ["mfa", "enable", "--password-stdin"]] {
            let result = try await cli.run(arguments, stdin: user.password + "\nanother long passphrase 42\n")
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr == sentence, "\(arguments): \(result)")
        }
        let json = try await cli.run(["--json", "passwd", "--password-stdin"], stdin: user.password + "\n")
        #expect(json.status == 1)
        #expect(json.stdout.contains(#""code":"proof_required""#), "\(json)")

        // Nothing changed: the password still logs in, and the factor is off.
        #expect(try await user.logIn(cli).status == 0)
        let status = try await cli.run(["mfa"])
        #expect(status.stdout.contains("Two-step verification is off"), "\(status)")
        await server.stop()
    }
}
