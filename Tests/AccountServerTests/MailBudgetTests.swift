import AccountAPI
import Foundation
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

@Suite("One mail budget per address")
struct MailBudgetTests {
    func mails(_ harness: Harness, to address: String) async throws -> [String] {
        await harness.mail.delivered(to: address)
    }

    func signUp(_ harness: Harness, _ nickname: String, _ email: String) async throws -> Reply {
        try await harness.send("POST", "/auth/signup", json: ["username": nickname, "email": email, "password": "a stranger's passphrase", "mbti": "esfp"])
    }

    @Test("eight sign-ups in a second to a taken address mail its owner one notice")
    func signUpBurst() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("sujin", email: "victim@example.com", password: "violet lantern harbor")
        harness.clock.advance(61)
        let before = try await mails(harness, to: "victim@example.com").count
        var statuses: [Int] = []
        for index in 0..<8 {
            statuses.append(try await signUp(harness, "burst\(index)", index.isMultiple(of: 2) ? "victim@example.com" : "VICTIM@Example.com").status)
        }
        #expect(statuses.first == 202)
        #expect(statuses.allSatisfy { $0 == 202 || $0 == 429 })
        #expect(try await mails(harness, to: "victim@example.com").count == before + 1)
    }

    @Test("codes, notices and reset codes share it: one a minute and five an hour, whatever the kind")
    func everyKindShares() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("sujin", email: "victim@example.com", password: "violet lantern harbor")
        // The sign-up's code opened the hour. Each minute, all three kinds of mail are asked for.
        var replies: [Int] = []
        for minute in 1...12 {
            harness.clock.advance(61)
            replies.append(try await signUp(harness, "kinds\(minute)", "victim@example.com").status)
            replies.append(try await harness.send("POST", "/auth/email/code", json: ["email": "victim@example.com", "purpose": "signup"]).status)
            replies.append(try await harness.send("POST", "/auth/password/reset", json: ["email": "victim@example.com"]).status)
            if minute == 3 { #expect(try await mails(harness, to: "victim@example.com").count == 4, "one message a minute") }
        }
        #expect(replies.allSatisfy { $0 == 202 || $0 == 429 })
        #expect(try await mails(harness, to: "victim@example.com").count == 5, "five in the hour the first message opened")
        harness.clock.advance(3600)
        try await harness.send("POST", "/auth/password/reset", json: ["email": "victim@example.com"])
        #expect(try await mails(harness, to: "victim@example.com").count == 6, "a new hour, a new budget")
    }

    @Test("a message the budget holds back changes no reply")
    func sameReplyWhenHeldBack() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("sujin", email: "victim@example.com", password: "violet lantern harbor")
        harness.clock.advance(61)
        let sent = try await harness.send("POST", "/auth/password/reset", json: ["email": "victim@example.com"])
        let heldBack = try await harness.send("POST", "/auth/email/code", json: ["email": "victim@example.com", "purpose": "signup"])
        let free = try await harness.send("POST", "/auth/email/code", json: ["email": "nobody@example.com", "purpose": "signup"])
        #expect(sent.status == 202 && heldBack.status == 202 && free.status == 202)
        #expect(observable(heldBack) == observable(free))
        #expect(try await mails(harness, to: "victim@example.com").count == 2, "the code and the reset code; the notice was held back")
    }

    @Test("its limits are configurable, and 0 turns each off")
    func configurable() async throws {
        let strict = try await Harness.make { $0.mailInterval = 0; $0.mailsPerHour = 2 }
        // Three messages for one address in one second, of three kinds: two go out.
        #expect(try await signUp(strict, "strict0", "a@example.com").status == 202)
        #expect(try await strict.send("POST", "/auth/email/code", json: ["email": "a@example.com", "purpose": "signup"]).status == 202)
        #expect(try await strict.send("POST", "/auth/email/code", json: ["email": "a@example.com", "purpose": "verify"]).status == 202)
        #expect(try await mails(strict, to: "a@example.com").count == 2)
        // The same numbers limit code requests per address and purpose: no cooldown, two an hour.
        #expect(try await signUp(strict, "strict1", "b@example.com").status == 202)
        #expect(try await signUp(strict, "strict2", "b@example.com").status == 202)
        #expect(try await signUp(strict, "strict3", "b@example.com").status == 429)

        let open = try await Harness.make { $0.mailInterval = 0; $0.mailsPerHour = 0 }
        for index in 0..<7 { #expect(try await signUp(open, "open\(index)", "c@example.com").status == 202) }
        #expect(try await mails(open, to: "c@example.com").count == 7)
    }
}
