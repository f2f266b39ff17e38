import AccountAPI
import Foundation
import TestSupport
import Testing
@testable import AccountCore
@testable import AccountServer

@Suite("Sign-up flows")
struct SignUpFlowTests {
    @Test("details first: 202, code mailed, login refused until verified, then signed in")
    func detailsFirst() async throws {
        let harness = try await Harness.make()
        let signup = try await harness.send("POST", "/auth/signup", json: [
            "username": "김민수", "email": " Minsu@Example.com ", "password": "correct horse battery",
            "password_confirmation": "correct horse battery", "mbti": "enfp",
        ])
        #expect(signup.status == 202)
        #expect(signup["verification"] as? String == "code_sent")
        #expect(signup["expires_in"] as? Int == 600)
        #expect(signup["email"] as? String == "Minsu@Example.com")

        let early = try await harness.send("POST", "/auth/login", json: ["username": "김민수", "password": "correct horse battery"])
        #expect(early.status == 403)
        #expect(early.code == "email_not_verified")
        let wrong = try await harness.send("POST", "/auth/login", json: ["username": "김민수", "password": "wrong horse battery"])
        #expect(wrong.status == 401, "a wrong password must not reveal the unverified state")

        let code = try #require(try await harness.latestCode(to: "Minsu@Example.com"))
        let verify = try await harness.send("POST", "/auth/email/verify", json: ["email": "minsu@example.com", "code": code])
        #expect(verify.status == 200)
        #expect(verify["verified"] as? Bool == true)
        #expect((verify["email_verification_token"] as? String)?.isEmpty == false)

        let login = try await harness.send("POST", "/auth/login", json: ["email": "MINSU@example.com", "password": "correct horse battery"])
        #expect(login.status == 200)
        let pair = try login.decode(TokenPair.self)
        #expect(pair.tokenType == "Bearer")
        #expect(pair.expiresIn == 900)
        #expect(pair.user.username == "김민수")
        #expect(pair.user.mbti == .enfp)
        #expect(pair.user.emailVerified)

        let me = try await harness.send("GET", "/auth/me", token: pair.access)
        #expect(me.status == 200)
        #expect(me["username"] as? String == "김민수")
        #expect(me["mbti"] as? String == "ENFP")
    }

    @Test("email first: code, verify, sign-up with the token is verified and signed in at once")
    func emailFirst() async throws {
        let harness = try await Harness.make()
        let sent = try await harness.send("POST", "/auth/email/code", json: ["email": "jiwoo@example.com", "purpose": "signup"])
        #expect(sent.status == 202)
        #expect(sent["expires_in"] as? Int == 600)
        let code = try #require(try await harness.latestCode(to: "jiwoo@example.com"))
        let verified = try await harness.send("POST", "/auth/email/verify", json: ["email": "jiwoo@example.com", "code": code])
        #expect(verified.status == 200)
        let token = try #require(verified["email_verification_token"] as? String)

        let body: [String: Any] = ["username": "jiwoo", "email": "jiwoo@example.com", "password": "purple monkey dishwasher", "mbti": "INTJ", "email_verification_token": token]
        let signup = try await harness.send("POST", "/auth/signup", json: body)
        #expect(signup.status == 201)
        let pair = try signup.decode(TokenPair.self)
        #expect(pair.user.emailVerified)
        #expect(try await harness.send("GET", "/auth/me", token: pair.access).status == 200)

        // The token is single use: a second sign-up with it fails even with another name.
        var again = body
        again["username"] = "jiwoo2"
        let reuse = try await harness.send("POST", "/auth/signup", json: again)
        #expect(reuse.status == 400)
        #expect(reuse.code == "code_invalid")
    }

    @Test("a verification token only works for its own address")
    func tokenBoundToAddress() async throws {
        let harness = try await Harness.make()
        try await harness.send("POST", "/auth/email/code", json: ["email": "a1@example.com", "purpose": "signup"])
        let code = try #require(try await harness.latestCode(to: "a1@example.com"))
        let token = try #require(try await harness.send("POST", "/auth/email/verify", json: ["email": "a1@example.com", "code": code])["email_verification_token"] as? String)
        let other = try await harness.send("POST", "/auth/signup", json: ["username": "other", "email": "b2@example.com", "password": "purple monkey dishwasher", "mbti": "INTJ", "email_verification_token": token])
        #expect(other.status == 400)
        #expect(try await harness.counts()[0] == 0)
    }

    @Test("a taken address answers like a free one, and its owner gets a notice without a code")
    func takenAddressIsNotRevealed() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("sujin", email: "owner@example.com")
        // One message a minute per address: the sign-up's code went out just now.
        harness.clock.advance(61)
        let before = try await harness.mails().count
        let again = try await harness.send("POST", "/auth/signup", json: ["username": "intruder", "email": "OWNER@example.com", "password": "another fine password", "mbti": "istj"])
        #expect(again.status == 202)
        #expect(Set(again.json.keys) == ["email", "verification", "expires_in", "signup_token"])
        #expect(try await harness.counts()[0] == 1, "no second account")
        let mails = try await harness.mails()
        #expect(mails.count == before + 1)
        let notice = try #require(mails.last)
        #expect(MailFolder.codes(in: notice).isEmpty)

        let code = try await harness.send("POST", "/auth/email/code", json: ["email": "owner@example.com", "purpose": "signup"])
        #expect(code.status == 202)
        #expect(Set(code.json.keys) == ["email", "expires_in"])
    }

    @Test("nicknames are unique ignoring case and width; reserved ones are taken")
    func usernameUniqueness() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("Mina", email: "mina@example.com")
        for name in ["mina", "MINA", "Ｍｉｎａ"] {
            let reply = try await harness.send("POST", "/auth/signup", json: ["username": name, "email": "\(UUID().uuidString.prefix(8))@example.com", "password": "another fine password", "mbti": "istj"])
            #expect(reply.status == 409, "\(name)")
            #expect(reply.code == "username_taken")
        }
        let reserved = try await harness.send("POST", "/auth/signup", json: ["username": "Admin", "email": "x@example.com", "password": "another fine password", "mbti": "istj"])
        #expect(reserved.status == 422)
        #expect(reserved.fieldCodes("username") == ["taken"])
    }

    @Test("invalid fields answer 422 with every field's errors and change nothing")
    func validation() async throws {
        let harness = try await Harness.make()
        let before = try await harness.rowCounts()
        let reply = try await harness.send("POST", "/auth/signup", json: [
            "username": "1", "email": "not-an-email", "password": "short", "password_confirmation": "other", "mbti": "ABCD",
        ], headers: ["Accept-Language": "ko-KR,ko;q=0.9"])
        #expect(reply.status == 422)
        #expect(reply.code == "validation_failed")
        #expect(reply.header("Content-Type") == "application/problem+json")
        #expect(!reply.fieldCodes("username").isEmpty)
        #expect(reply.fieldCodes("email") == ["invalid_format"])
        #expect(reply.fieldCodes("password") == ["too_short"])
        #expect(reply.fieldCodes("password_confirmation") == ["mismatch"])
        #expect(reply.fieldCodes("mbti") == ["invalid_choice"])
        let missing = try await harness.send("POST", "/auth/signup", json: [String: Any]())
        #expect(Set(["username", "email", "password", "mbti"]).allSatisfy { missing.fieldCodes($0) == ["required"] })
        let common = try await harness.send("POST", "/auth/signup", json: ["username": "sora", "email": "sora@example.com", "password": "password123", "mbti": "isfp"])
        #expect(common.fieldCodes("password").contains("too_common"))
        let similar = try await harness.send("POST", "/auth/signup", json: ["username": "sora", "email": "sora@example.com", "password": "i-am-sora-really", "mbti": "isfp"])
        #expect(similar.fieldCodes("password") == ["too_similar"])
        #expect(try await harness.rowCounts() == before)
        #expect(before.values.allSatisfy { $0 == 0 })
    }
}
