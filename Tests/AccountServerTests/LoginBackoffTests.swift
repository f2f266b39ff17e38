import AccountAPI
import Foundation
import Testing
import TestSupport

/// The login back-off to the second: its `Retry-After` values are exact only on a clock that
/// stands still between requests, so these run on the app in this process.
@Suite("Login back-off")
struct LoginBackoffTests {
    @discardableResult
    func login(_ harness: Harness, _ body: [String: String]) async throws -> Reply {
        try await harness.send("POST", "/auth/login", json: body)
    }

    @Test("five failures by any identifier back off the account; waiting doubles; a success clears it")
    func backoff() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(TestAccount(username: "gyu", email: "gyu@example.com", password: "correct horse battery"))
        let wrongs: [[String: String]] = [
            ["username": "gyu", "password": "wrong 1 wrong"], ["username": "GYU", "password": "wrong 2 wrong"],
            ["email": "gyu@example.com", "password": "wrong 3 wrong"], ["login": "Gyu@Example.com", "password": "wrong 4 wrong"],
            ["login": "gyu", "password": "wrong 5 wrong"],
        ]
        for body in wrongs { #expect(try await login(harness, body).code == "invalid_credentials") }
        let refused = try await login(harness, ["username": "gyu", "password": "correct horse battery"])
        #expect(refused.status == 429)
        #expect(refused.code == "rate_limited")
        #expect(refused.header("Retry-After") == "30")

        harness.clock.advance(20)
        #expect(try await login(harness, ["username": "gyu", "password": "wrong again"]).header("Retry-After") == "10", "tries during a back-off do not extend it")
        harness.clock.advance(11)
        #expect(try await login(harness, ["username": "gyu", "password": "wrong 6 wrong"]).code == "invalid_credentials")
        #expect(try await login(harness, ["username": "gyu", "password": "correct horse battery"]).header("Retry-After") == "60", "the next failure doubles the back-off")
        harness.clock.advance(61)
        #expect(try await login(harness, ["username": "gyu", "password": "correct horse battery"]).status == 200)
        for index in 0..<4 { #expect(try await login(harness, ["username": "gyu", "password": "wrong \(index) again"]).status == 401, "cleared by the success") }
    }

    @Test("unknown accounts back off exactly like known ones")
    func unknownAccounts() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(TestAccount(username: "real", email: "real@example.com", password: "correct horse battery"))
        var known: [String] = []
        var unknown: [String] = []
        for index in 0..<7 {
            known.append(try await login(harness, ["email": "real@example.com", "password": "wrong \(index) pw"]).text)
            unknown.append(try await login(harness, ["email": "ghost@example.com", "password": "wrong \(index) pw"]).text)
        }
        #expect(known == unknown)
    }

    @Test("100 parallel wrong guesses: at most the limit get a password check")
    func parallelGuesses() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(TestAccount(username: "target", email: "target@example.com", password: "correct horse battery"))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<100 {
                group.addTask { try await harness.send("POST", "/auth/login", json: ["username": "target", "password": "guess \(index) guess"]).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 401 }.count == 5)
        #expect(statuses.filter { $0 == 429 }.count == 95)
    }

    @Test("a password reset clears the back-off")
    func resetClears() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(TestAccount(username: "reset", email: "reset@example.com", password: "correct horse battery"))
        // One message a minute per address: the sign-up's code went out just now.
        harness.clock.advance(61)
        for index in 0..<5 { try await login(harness, ["username": "reset", "password": "wrong \(index) pw"]) }
        #expect(try await login(harness, ["username": "reset", "password": "correct horse battery"]).status == 429)
        try await harness.send("POST", "/auth/password/reset", json: ["email": "reset@example.com"])
        let code = try #require(try await harness.latestCode(to: "reset@example.com"))
        #expect(try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "reset@example.com", "code": code, "new_password": "a fresh new secret"]).status == 204)
        #expect(try await login(harness, ["username": "reset", "password": "a fresh new secret"]).status == 200)
    }
}
