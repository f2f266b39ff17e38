import AccountAPI
import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

/// Spellings of one address (NFKC, Unicode case folding) are one account, and mail goes to the
/// address as the account stored it, in process.
@Suite("Email spellings")
struct EmailSpellingTests {
    /// (the address an account signs up with, another spelling of it)
    static let spellings: [(String, String)] = [
        ("kim@example.com", "\u{212A}im@example.com"),            // Kelvin sign
        ("sam@example.com", "\u{017F}am@example.com"),            // long s
        ("mina@example.com", "ｍｉｎａ@ｅｘａｍｐｌｅ.ｃｏｍ"),         // full width
        ("Mina.Kim@Example.com", "MINA.KIM@EXAMPLE.COM"),
        ("fish@example.com", "\u{FB01}sh@example.com"),           // ligature
        ("jos\u{00E9}@example.com", "jose\u{0301}@example.com"),  // decomposed
        ("\u{00C5}sa@example.com", "\u{212B}sa@example.com"),     // Angstrom sign
        ("strasse@example.de", "STRA\u{1E9E}E@example.de"),      // capital sharp s folds to ss
        ("joon@example.com", "joon＠example．com"),                // full-width @ and dot
    ]

    /// The `To:` address of every message delivered so far, oldest first.
    static func recipients(_ harness: Harness) async throws -> [String] {
        try await harness.mails().compactMap(MailFolder.recipient(of:))
    }

    /// Every message once there are `count` of them (at most 10 s).
    static func waitForMails(_ harness: Harness, count: Int) async throws -> [String] {
        for _ in 0..<200 {
            let mails = try await harness.mails()
            if mails.count >= count { return mails }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("fewer than \(count) messages within 10 s")
    }

    @Test("Another spelling is the same account: sign-up answers as for a taken address, login finds it", arguments: spellings)
    func oneAccount(_ pair: (String, String)) async throws {
        let (stored, spelling) = pair
        let harness = try await Harness.make()
        let first = TestAccount(username: "first", email: stored, password: "correct horse battery")
        try await harness.registered(first)
        #expect(try await harness.send("POST", "/auth/login", json: ["email": stored, "password": first.password]).status == 200)
        let mailed = try await Self.recipients(harness).count

        harness.clock.advance(61)  // past the address's one-message-a-minute mail budget
        let again = try await harness.trySignUp(TestAccount(username: "second", email: spelling, password: "correct horse battery"))
        #expect(again.status == 202, "\(again.text)")
        #expect(try await harness.counts()[0] == 1, "no second account for \(spelling)")
        // The owner's notice goes to the stored address, never to the spelling of the request.
        #expect(try await Self.recipients(harness).dropFirst(mailed) == [stored])

        for body in [["email": spelling], ["login": spelling]] {
            let login = try await harness.send("POST", "/auth/login", json: body.merging(["password": "correct horse battery"]) { a, _ in a })
            #expect(login.status == 200, "\(body): \(login.text)")
            #expect((try? login.decode(TokenPair.self))?.user.email == stored)
        }
    }

    @Test("Codes and notices asked for by another spelling go to the stored address", arguments: spellings)
    func mailGoesToTheStoredAddress(_ pair: (String, String)) async throws {
        let (stored, spelling) = pair
        let harness = try await Harness.make()
        let first = try await harness.trySignUp(TestAccount(username: "hana", email: stored, password: "correct horse battery"))
        #expect(first.status == 202, "\(first.text)")
        var expected = [stored]  // the sign-up's own code
        // The background sender may still hold a message `mails()` did not deliver, and messages
        // of one millisecond sort in any order: wait for each step's one message, tell it by its text.
        var seen = Set(try await Self.waitForMails(harness, count: 1))
        func newMessage() async throws -> String {
            let fresh = try await Self.waitForMails(harness, count: seen.count + 1).filter { !seen.contains($0) }
            seen.formUnion(fresh)
            try #require(fresh.count == 1)
            return fresh[0]
        }

        harness.clock.advance(61)
        let verify = try await harness.send("POST", "/auth/email/code", json: ["email": spelling, "purpose": "verify"])
        #expect(verify.status == 202, "\(verify.text)")
        expected.append(stored)
        let verifyCode = try #require(MailFolder.code(in: try await newMessage()))
        let verified = try await harness.send("POST", "/auth/email/verify", json: ["email": spelling, "code": verifyCode])
        #expect(verified.status == 200, "\(verified.text)")

        harness.clock.advance(61)  // each message below waits for the address's mail budget
        let notice = try await harness.send("POST", "/auth/email/code", json: ["email": spelling, "purpose": "signup"])
        #expect(notice.status == 202)
        expected.append(stored)
        _ = try await newMessage()

        harness.clock.advance(61)
        let reset = try await harness.send("POST", "/auth/password/reset", json: ["email": spelling])
        #expect(reset.status == 202)
        expected.append(stored)
        let resetCode = try #require(MailFolder.code(in: try await newMessage()))
        let confirmed = try await harness.send("POST", "/auth/password/reset/confirm", json: [
            "email": spelling, "code": resetCode, "new_password": "another horse battery",
        ])
        #expect(confirmed.status == 204, "\(confirmed.text)")

        #expect(Set(try await Self.recipients(harness)) == [stored])
        #expect(try await Self.recipients(harness).count == expected.count)
    }

    @Test func a_sign_up_code_before_any_account_goes_to_the_normalized_address() async throws {
        let harness = try await Harness.make()
        let sent = try await harness.send("POST", "/auth/email/code", json: ["email": " ｍｉｎａ@example.com ", "purpose": "signup"])
        #expect(sent.status == 202)
        #expect(sent["email"] as? String == "mina@example.com")
        #expect(try await Self.recipients(harness) == ["mina@example.com"])

        // Any spelling of the address verifies it and signs up with the token; the account stores
        // the normalized form, not the raw spelling.
        let code = try #require(try await harness.latestCode(to: "mina@example.com"))
        let verified = try await harness.send("POST", "/auth/email/verify", json: ["email": "MINA@example.com", "code": code])
        let token = try #require(verified["email_verification_token"] as? String)
        let created = try await harness.send("POST", "/auth/signup", json: [
            "username": "mina", "email": "ｍｉｎａ@example.com", "password": "correct horse battery", "mbti": "enfp",
            "email_verification_token": token,
        ])
        #expect(created.status == 201, "\(created.text)")
        #expect((try? created.decode(TokenPair.self))?.user.email == "mina@example.com")
    }

    @Test func invisible_characters_in_an_address_are_refused() async throws {
        let harness = try await Harness.make()
        for address in ["mi\u{FE0F}na@example.com", "mina\u{00AD}@example.com", "mi\u{3164}na@example.com"] {
            let reply = try await harness.trySignUp(TestAccount(username: "mina", email: address, password: "correct horse battery"))
            #expect(reply.status == 422 && reply.fieldCodes("email") == ["invalid_format"], "\(reply.text)")
        }
        #expect(try await harness.counts() == [0, 0])
    }
}
