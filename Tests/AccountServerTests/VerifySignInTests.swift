import AccountAPI
import Foundation
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// Signing in at verification where only a clock that stands still can put the moment: the
/// other cases are in `Tests/Scenarios/VerifySignInScenarios.swift`, run both ways.
@Suite("Verify signs in")
struct VerifySignInTests {
    @Test("the session's user is the account as stored, even a moment before a second turns")
    func theUserIsAsStored() async throws {
        let harness = try await Harness.make()
        let accepted = try await harness.signUp(TestAccount(username: "초침", email: "second@example.com", password: "correct horse battery", mbti: .infj))
        let token = try #require(accepted.signUpToken)
        let code = try #require(try await harness.latestCode(to: "second@example.com"))
        // The store keeps milliseconds; the wire shows whole seconds.
        let now = harness.clock.now.timeIntervalSince1970
        harness.clock.advance(now.rounded(.down) + 60.9998 - now)
        let reply = try await harness.send("POST", "/auth/email/verify", json: ["email": "second@example.com", "code": code, "sign_in": true, "signup_token": token], headers: ["User-Agent": "VerifyTests/1.0"])
        let pair = try #require(try reply.decode(EmailVerified.self).session)
        let me = try await harness.send("GET", "/auth/me", token: pair.access).decode(User.self)
        #expect(me.createdAt == pair.user.createdAt)
        #expect(me == pair.user)
    }
}
