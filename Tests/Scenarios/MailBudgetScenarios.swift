import AccountAPI
import Foundation
import Testing
import TestSupport

/// One mail budget per address: one message a minute and five an hour, whatever the kind.
enum MailBudgetScenarios {
    static let all = Scenario.set("One mail budget per address", [
        ("eight sign-ups in a second to a taken address mail its owner one notice", signUpBurst),
        ("eight sign-ups at once to a taken address: one accepted, one notice; other mail that second shares the budget", parallelSignUps),
        ("codes, notices and reset codes share it: one a minute and five an hour, whatever the kind", everyKindShares),
        ("a message the budget holds back changes no reply", sameReplyWhenHeldBack),
        ("its limits are configurable, and 0 turns each off", configurable),
    ])

    static let victim = TestAccount(username: "sujin", email: "victim@example.com", password: "violet lantern harbor")

    static func signUp(_ server: any TestServer, _ nickname: String, _ email: String) async throws -> Reply {
        try await server.send("POST", "/auth/signup", json: ["username": nickname, "email": email, "password": "a stranger's passphrase", "mbti": "esfp"])
    }

    static func signUpBurst(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.signedIn(victim)
        server.clock.advance(61)
        let before = await server.mail.delivered(to: "victim@example.com").count
        var statuses: [Int] = []
        for index in 0..<8 {
            statuses.append(try await signUp(server, "burst\(index)", index.isMultiple(of: 2) ? "victim@example.com" : "VICTIM@Example.com").status)
        }
        #expect(statuses.first == 202)
        #expect(statuses.allSatisfy { $0 == 202 || $0 == 429 })
        #expect(try await server.mail.settledCount(to: "victim@example.com", expected: before + 1) == before + 1)
        await server.stop()
    }

    static func parallelSignUps(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let (owner, _) = try await server.verifiedAccount("victim")
        server.clock.advance(61)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let request = TestAccount(username: TestAccount("burst\(index)").username, email: owner.email, password: "Stranger-\(UUID().uuidString)").signUpRequest
                    return try await server.send("POST", "/auth/signup", model: request).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 202 }.count == 1 && statuses.filter { $0 == 429 }.count == 7, "\(statuses)")
        // Other kinds of mail in the same second share the budget.
        #expect(try await server.send("POST", "/auth/password/reset", json: ["email": owner.email]).status == 202)
        #expect(try await server.send("POST", "/auth/email/code", json: ["email": owner.email, "purpose": "signup"]).status == 202)
        #expect(try await server.mail.settledCount(to: owner.email, expected: 2) == 2, "the sign-up code, then one notice")
        let messages = server.mail.messages(to: owner.email)
        #expect(MailFolder.codes(in: messages.last ?? "").isEmpty)
        await server.stop()
    }

    static func everyKindShares(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.signedIn(victim)
        // The sign-up's code opened the hour. Each minute, all three kinds of mail are asked for.
        var replies: [Int] = []
        for minute in 1...12 {
            server.clock.advance(61)
            replies.append(try await signUp(server, "kinds\(minute)", "victim@example.com").status)
            replies.append(try await server.send("POST", "/auth/email/code", json: ["email": "victim@example.com", "purpose": "signup"]).status)
            replies.append(try await server.send("POST", "/auth/password/reset", json: ["email": "victim@example.com"]).status)
            if minute == 3 { #expect(try await server.mail.settledCount(to: "victim@example.com", expected: 4) == 4, "one message a minute") }
        }
        #expect(replies.allSatisfy { $0 == 202 || $0 == 429 })
        #expect(try await server.mail.settledCount(to: "victim@example.com", expected: 5) == 5, "five in the hour the first message opened")
        server.clock.advance(3600)
        try await server.send("POST", "/auth/password/reset", json: ["email": "victim@example.com"])
        #expect(try await server.mail.settledCount(to: "victim@example.com", expected: 6) == 6, "a new hour, a new budget")
        await server.stop()
    }

    static func sameReplyWhenHeldBack(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await server.signedIn(victim)
        server.clock.advance(61)
        let sent = try await server.send("POST", "/auth/password/reset", json: ["email": "victim@example.com"])
        let heldBack = try await server.send("POST", "/auth/email/code", json: ["email": "victim@example.com", "purpose": "signup"])
        let free = try await server.send("POST", "/auth/email/code", json: ["email": "nobody@example.com", "purpose": "signup"])
        #expect(sent.status == 202 && heldBack.status == 202 && free.status == 202)
        #expect(heldBack.observable() == free.observable())
        #expect(try await server.mail.settledCount(to: "victim@example.com", expected: 2) == 2, "the code and the reset code; the notice was held back")
        await server.stop()
    }

    static func configurable(_ kind: any TestServerKind) async throws {
        let strict = try await kind.start(["--mail-interval", "0", "--mail-per-hour", "2"])
        // Three messages for one address in one second, of three kinds: two go out.
        #expect(try await signUp(strict, "strict0", "a@example.com").status == 202)
        #expect(try await strict.send("POST", "/auth/email/code", json: ["email": "a@example.com", "purpose": "signup"]).status == 202)
        #expect(try await strict.send("POST", "/auth/email/code", json: ["email": "a@example.com", "purpose": "verify"]).status == 202)
        #expect(try await strict.mail.settledCount(to: "a@example.com", expected: 2) == 2)
        // The same numbers limit code requests per address and purpose: no cooldown, two an hour.
        #expect(try await signUp(strict, "strict1", "b@example.com").status == 202)
        #expect(try await signUp(strict, "strict2", "b@example.com").status == 202)
        #expect(try await signUp(strict, "strict3", "b@example.com").status == 429)
        // A code of another purpose is still asked for, and the budget keeps its mail to two.
        #expect(try await strict.send("POST", "/auth/email/code", json: ["email": "b@example.com", "purpose": "signup"]).status == 202)
        #expect(try await strict.mail.settledCount(to: "b@example.com", expected: 2) == 2)
        await strict.stop()

        let open = try await kind.start(["--mail-interval", "0", "--mail-per-hour", "0"])
        for index in 0..<7 { #expect(try await signUp(open, "open\(index)", "c@example.com").status == 202) }
        #expect(try await open.mail.settledCount(to: "c@example.com", expected: 7) == 7)
        await open.stop()
    }
}
