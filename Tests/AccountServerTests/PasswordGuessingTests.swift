import AccountAPI
import Foundation
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// A stolen access token must not be a way to guess the password: password change and account
/// deletion check it under the same per-account back-off as login.
@Suite("Password checks behind a token")
struct PasswordGuessingTests {
    func change(_ harness: Harness, _ token: String, current: String, new: String = "a brand new secret") async throws -> Reply {
        try await harness.send("POST", "/auth/password/change", json: ["current_password": current, "new_password": new], token: token)
    }

    func delete(_ harness: Harness, _ token: String, password: String) async throws -> Reply {
        try await harness.send("DELETE", "/auth/me", json: ["password": password], token: token)
    }

    func login(_ harness: Harness, _ password: String) async throws -> Reply {
        try await harness.send("POST", "/auth/login", json: ["username": "bora", "password": password])
    }

    @Test("a wrong password is 403 invalid_credentials without a Bearer challenge, and the session lives on")
    func wrongPasswordIsNotABadToken() async throws {
        let harness = try await Harness.make()
        let pair = try await harness.signedIn(TestAccount(username: "bora", email: "bora@example.com", password: "correct horse battery"))
        for reply in [try await change(harness, pair.access, current: "nope nope nope"), try await delete(harness, pair.access, password: "nope nope nope")] {
            #expect(reply.status == 403)
            #expect(reply.code == "invalid_credentials")
            #expect(reply.header("WWW-Authenticate") == nil)
            #expect(reply.header("Content-Type") == "application/problem+json")
        }
        #expect(try await harness.send("GET", "/auth/me", token: pair.access).status == 200)
        #expect(try await harness.counts()[0] == 1)
        // A bad token is still a 401 with the challenge.
        let badToken = try await change(harness, "not-a-token", current: "correct horse battery")
        #expect(badToken.status == 401 && badToken.header("WWW-Authenticate") == "Bearer error=\"invalid_token\"")
    }

    @Test("login, password change and deletion count failures on one back-off, and each is refused during it")
    func oneSharedBackoff() async throws {
        let harness = try await Harness.make()
        let pair = try await harness.signedIn(TestAccount(username: "bora", email: "bora@example.com", password: "correct horse battery"))
        #expect(try await login(harness, "wrong 1 wrong").status == 401)
        #expect(try await change(harness, pair.access, current: "wrong 2 wrong").status == 403)
        #expect(try await delete(harness, pair.access, password: "wrong 3 wrong").status == 403)
        #expect(try await login(harness, "wrong 4 wrong").status == 401)
        #expect(try await change(harness, pair.access, current: "wrong 5 wrong").status == 403)
        // Backed off: the right password is refused everywhere, without a check.
        let runs = harness.app.services.passwords.runs.value
        for reply in [
            try await change(harness, pair.access, current: "correct horse battery"),
            try await delete(harness, pair.access, password: "correct horse battery"),
            try await login(harness, "correct horse battery"),
        ] {
            #expect(reply.status == 429)
            #expect(reply.code == "rate_limited")
            #expect(reply.header("Retry-After") == "30")
            #expect(reply.header("WWW-Authenticate") == nil)
        }
        #expect(harness.app.services.passwords.runs.value == runs, "no password was checked during the back-off")
        #expect(try await harness.send("GET", "/auth/me", token: pair.access).status == 200)

        harness.clock.advance(31)
        #expect(try await change(harness, pair.access, current: "wrong 6 wrong").status == 403)
        #expect(try await login(harness, "correct horse battery").header("Retry-After") == "60", "the next failure doubled it")
        harness.clock.advance(61)
        #expect(try await change(harness, pair.access, current: "correct horse battery").status == 204)
        // The success cleared the count: four more failures are plain failures.
        for index in 0..<4 { #expect(try await login(harness, "wrong \(index) again").status == 401) }
    }

    @Test("fifty parallel guesses behind one token: at most the limit get a password check")
    func parallelGuesses() async throws {
        let harness = try await Harness.make()
        let pair = try await harness.signedIn(TestAccount(username: "bora", email: "bora@example.com", password: "correct horse battery"))
        let runs = harness.app.services.passwords.runs.value
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask {
                    index.isMultiple(of: 2)
                        ? try await change(harness, pair.access, current: "guess \(index) guess").status
                        : try await delete(harness, pair.access, password: "guess \(index) guess").status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 403 }.count == 5)
        #expect(statuses.filter { $0 == 429 }.count == 45)
        #expect(harness.app.services.passwords.runs.value == runs + 5)
        #expect(try await harness.counts()[0] == 1)
    }
}
