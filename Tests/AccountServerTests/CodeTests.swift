import AccountAPI
import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

@Suite("One-time codes")
struct CodeTests {
    @Test("five wrong tries spend the code; even the right one is refused then")
    func attempts() async throws {
        let harness = try await Harness.make()
        try await harness.send("POST", "/auth/email/code", json: ["email": "try@example.com", "purpose": "signup"])
        let code = try #require(try await harness.latestCode(to: "try@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        var codes: [String?] = []
        for _ in 0..<5 {
            codes.append(try await harness.send("POST", "/auth/email/verify", json: ["email": "try@example.com", "code": wrong]).code)
        }
        #expect(codes == ["code_invalid", "code_invalid", "code_invalid", "code_invalid", "too_many_attempts"])
        let right = try await harness.send("POST", "/auth/email/verify", json: ["email": "try@example.com", "code": code])
        #expect(right.status == 429)
        #expect(right.code == "too_many_attempts")
    }

    @Test("a code expires after ten minutes")
    func expiry() async throws {
        let harness = try await Harness.make()
        try await harness.send("POST", "/auth/email/code", json: ["email": "late@example.com", "purpose": "signup"])
        let code = try #require(try await harness.latestCode(to: "late@example.com"))
        harness.clock.advance(601)
        let reply = try await harness.send("POST", "/auth/email/verify", json: ["email": "late@example.com", "code": code])
        #expect(reply.status == 400)
        #expect(reply.code == "code_expired")
    }

    @Test("a new code replaces the old one; a resend within a minute is 429")
    func resend() async throws {
        let harness = try await Harness.make()
        try await harness.send("POST", "/auth/email/code", json: ["email": "again@example.com", "purpose": "signup"])
        let first = try #require(try await harness.latestCode(to: "again@example.com"))
        let soon = try await harness.send("POST", "/auth/email/code", json: ["email": "again@example.com", "purpose": "signup"])
        #expect(soon.status == 429)
        #expect(soon.code == "rate_limited")
        #expect(Int(soon.header("Retry-After") ?? "") == 60)
        harness.clock.advance(61)
        #expect(try await harness.send("POST", "/auth/email/code", json: ["email": "again@example.com", "purpose": "signup"]).status == 202)
        let second = try #require(try await harness.latestCode(to: "again@example.com"))
        if first != second {
            #expect(try await harness.send("POST", "/auth/email/verify", json: ["email": "again@example.com", "code": first]).code == "code_invalid")
        }
        #expect(try await harness.send("POST", "/auth/email/verify", json: ["email": "again@example.com", "code": second]).status == 200)
    }

    @Test("a code is bound to its address")
    func boundToAddress() async throws {
        let harness = try await Harness.make()
        try await harness.send("POST", "/auth/email/code", json: ["email": "one@example.com", "purpose": "signup"])
        try await harness.send("POST", "/auth/email/code", json: ["email": "two@example.com", "purpose": "signup"])
        let code = try #require(try await harness.latestCode(to: "one@example.com"))
        let other = try #require(try await harness.latestCode(to: "two@example.com"))
        if code != other {
            #expect(try await harness.send("POST", "/auth/email/verify", json: ["email": "two@example.com", "code": code]).code == "code_invalid")
        }
    }

    @Test("bad code requests are field errors")
    func validation() async throws {
        let harness = try await Harness.make()
        let reply = try await harness.send("POST", "/auth/email/code", json: ["email": "x@example.com", "purpose": "party"])
        #expect(reply.fieldCodes("purpose") == ["invalid_choice"])
        let badCode = try await harness.send("POST", "/auth/email/verify", json: ["email": "x@example.com", "code": "12ab56"])
        #expect(badCode.fieldCodes("code") == ["invalid_format"])
        #expect(try await harness.counts() == [0, 0])
    }
}

@Suite("Code send limits")
struct CodeSendLimitTests {
    @Test("five codes an hour per address and purpose, the same for taken and free addresses")
    func hourlyLimit() async throws {
        let harness = try await Harness.make()
        try await harness.signedIn(TestAccount(username: "taken", email: "taken@example.com", password: "correct horse battery"))
        for email in ["free@example.com", "taken@example.com"] {
            var statuses: [Int] = []
            for _ in 0..<6 {
                statuses.append(try await harness.send("POST", "/auth/email/code", json: ["email": email, "purpose": "signup"]).status)
                harness.clock.advance(61)
            }
            #expect(statuses == [202, 202, 202, 202, 202, 429], "\(email)")
        }
        let verify = try await harness.send("POST", "/auth/email/code", json: ["email": "free@example.com", "purpose": "verify"])
        #expect(verify.status == 202, "another purpose counts apart")
        harness.clock.advance(3600)
        #expect(try await harness.send("POST", "/auth/email/code", json: ["email": "free@example.com", "purpose": "signup"]).status == 202)
    }
}
