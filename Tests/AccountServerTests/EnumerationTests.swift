import AccountAPI
import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// What only the app in this process can show of enumeration: how often it hashed. The replies
/// themselves are compared in `Tests/Scenarios/EnumerationScenarios.swift`, both ways.
@Suite("Password reset confirmation tells no address from another")
struct ResetConfirmEnumerationTests {
    @Test("no password is checked or hashed before a right code")
    func noHashBeforeTheCode() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(TestAccount(username: "dami", email: "dami@example.com", password: "correct horse battery"))
        harness.clock.advance(61)
        try await harness.send("POST", "/auth/password/reset", json: ["email": "dami@example.com"])
        let code = try #require(try await harness.latestCode(to: "dami@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        let before = harness.app.services.passwords.runs.value
        for password in ["another good secret", "dami1234"] {
            for email in ["dami@example.com", "ghost@example.com"] {
                try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": email, "code": wrong, "new_password": password])
            }
        }
        #expect(harness.app.services.passwords.runs.value == before, "wrong codes cost no Argon2id run")
        // The wrong tries spent the code; a new one, then the right code hashes once.
        harness.clock.advance(61)
        try await harness.send("POST", "/auth/password/reset", json: ["email": "dami@example.com"])
        let fresh = try #require(try await harness.latestCode(to: "dami@example.com"))
        let right = harness.app.services.passwords.runs.value
        #expect(try await harness.send("POST", "/auth/password/reset/confirm", json: ["email": "dami@example.com", "code": fresh, "new_password": "another good secret"]).status == 204)
        #expect(harness.app.services.passwords.runs.value == right + 1)
    }
}
