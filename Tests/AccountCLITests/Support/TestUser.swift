import Foundation
import TestSupport
import Testing

/// A fresh nickname, email and password that pass the server's rules.
struct TestUser {
    let username: String
    let email: String
    var password = "blue lantern harbor 42"

    init() {
        let tag = UUID().uuidString.prefix(8).lowercased()
        username = "cli_\(tag)"
        email = "cli.\(tag)@example.com"
    }

    /// Signs up with the CLI's scripted flags; returns the user and the code mailed to it.
    static func unverified(_ cli: AccountCLI, _ server: ServerProcess) async throws -> (user: TestUser, code: String) {
        let user = TestUser()
        let signUp = try await cli.run(
            ["signup", "--username", user.username, "--email", user.email, "--mbti", "intp", "--password-stdin"],
            stdin: user.password + "\n")
        try #require(signUp.status == 0, "\(signUp)")
        return (user, try await server.mail.code(to: user.email))
    }

    /// Signs up with the CLI's scripted flags, reads the mailed code and verifies it with the CLI
    /// (which signs in), then logs out: an account that logs in later, as most tests need.
    static func verified(_ cli: AccountCLI, _ server: ServerProcess) async throws -> TestUser {
        let (user, code) = try await unverified(cli, server)
        let verify = try await cli.run(["verify", "--email", user.email, "--code", code])
        try #require(verify.status == 0, "\(verify)")
        let logout = try await cli.run(["logout"])
        try #require(logout.status == 0, "\(logout)")
        return user
    }

    /// Logs in with the CLI by nickname.
    func logIn(_ cli: AccountCLI) async throws -> ProgramResult {
        try await cli.run(["login", "--username", username, "--password-stdin"], stdin: password + "\n")
    }
}
