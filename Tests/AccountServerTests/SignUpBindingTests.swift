import AccountAPI
import Foundation
import Testing
@testable import AccountServer

/// Pre-hijacking (Sudhodanan & Paverd, 2022) through a newer sign-up: after the owner of an
/// address signs up, a stranger signs the same address up with a password of their own. The
/// owner's code must not make the stranger's account and sign the owner's device in to it: the
/// `signup_token` of the 202 reply binds signing in to the sign-up it came from.
@Suite("A newer sign-up of an address cannot sign in the device of the one it replaced")
struct SignUpBindingTests {
    static let address = "dahye@example.com"
    static let ownerPassword = "owner horse battery"
    static let strangerPassword = "stranger horse battery"

    /// A details-first sign-up; returns its reply (202).
    @discardableResult
    static func signUp(_ harness: Harness, _ username: String, _ email: String = address, password: String) async throws -> Reply {
        let reply = try await harness.send("POST", "/auth/signup", json: [
            "username": username, "email": email, "password": password, "password_confirmation": password, "mbti": "isfp",
        ])
        try #require(reply.status == 202, "\(reply.text)")
        return reply
    }

    static func token(_ reply: Reply) throws -> String {
        try #require(reply["signup_token"] as? String, "\(reply.text)")
    }

    static func verify(_ harness: Harness, _ code: String, signIn: Bool = true, token: String?) async throws -> Reply {
        var body: [String: Any] = ["email": address, "code": code]
        if signIn { body["sign_in"] = true }
        if let token { body["signup_token"] = token }
        return try await harness.send("POST", "/auth/email/verify", json: body)
    }

    /// What a client can see of a token: its length and alphabet (base64url, no padding).
    static func shape(_ token: String?) -> String {
        guard let token else { return "none" }
        let alphabet = token.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        return "\(token.count) \(alphabet ? "base64url" : "other")"
    }

    /// The owner's sign-up, then a stranger's of the same address a minute later (past the
    /// address's code cooldown and mail budget): `(harness, owner's token, stranger's token)`.
    static func replacedSignUp() async throws -> (Harness, String, String) {
        let harness = try await Harness.make()
        let owner = try await signUp(harness, "다혜", password: ownerPassword)
        harness.clock.advance(61)
        let stranger = try await signUp(harness, "낯선손님", password: strangerPassword)
        return (harness, try token(owner), try token(stranger))
    }

    @Test("the owner's code with the owner's token, after a stranger's newer sign-up: refused, nothing made, nothing opened")
    func ownersCodeIsRefused() async throws {
        let (harness, ownerToken, strangerToken) = try await Self.replacedSignUp()
        #expect(ownerToken != strangerToken, "each sign-up has its own token")
        #expect(Self.shape(ownerToken) == "43 base64url" && Self.shape(strangerToken) == "43 base64url")
        // The newest mail is the stranger's sign-up's: it names the stranger's nickname.
        let mail = try #require(try await harness.mails().last { $0.contains("To: \(Self.address)") })
        #expect(mail.contains("as “\u{2068}낯선손님\u{2069}”"), "\(mail)")
        let code = try #require(try await harness.latestCode(to: Self.address))

        let refused = try await Self.verify(harness, code, token: ownerToken)
        #expect(refused.status == 409 && refused.code == "signup_superseded", "\(refused.text)")
        #expect(refused["detail"] as? String == "This sign-up was replaced by a newer one for this address; sign up again.")
        #expect(refused["email_verification_token"] == nil && refused["session"] == nil)
        let rows = try await harness.rowCounts()
        #expect(rows["users"] == 0 && rows["sessions"] == 0, "\(rows)")
        #expect(rows["pending_signups"] == 0, "the stranger's sign-up is dropped")
        #expect(rows["verification_tokens"] == 0, "no proof of the address is handed out")
        #expect(harness.app.metrics.logins(.signUpVerified) == 0)

        // The code is spent: the same request without sign_in (or a retry) makes nothing either.
        let again = try await Self.verify(harness, code, signIn: false, token: nil)
        #expect(again.status == 400 && again.code == "code_invalid", "\(again.text)")
        #expect(try await harness.counts()[0] == 0)
        for password in [Self.strangerPassword, Self.ownerPassword] {
            let login = try await harness.send("POST", "/auth/login", json: ["email": Self.address, "password": password])
            #expect(login.status == 401, "\(login.text)")
        }
        // Nothing is pending, so nobody can have a new code for it.
        harness.clock.advance(61)
        let mailed = try await harness.mails().count
        #expect(try await harness.send("POST", "/auth/email/code", json: ["email": Self.address, "purpose": "verify"]).status == 202)
        #expect(try await harness.mails().count == mailed, "no code for a dropped sign-up")
    }

    @Test("the owner signs up again and is signed in, with the owner's nickname and password")
    func ownerSignsUpAgain() async throws {
        let (harness, ownerToken, _) = try await Self.replacedSignUp()
        let code = try #require(try await harness.latestCode(to: Self.address))
        #expect(try await Self.verify(harness, code, token: ownerToken).code == "signup_superseded")

        // No code is live, so no cooldown holds the sign-up back (the mail waits for the address's
        // one-message-a-minute budget: the stranger's code went out a moment ago).
        let now = try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        #expect(now.status == 202)
        harness.clock.advance(61)
        let resent = try await harness.send("POST", "/auth/email/code", json: ["email": Self.address, "purpose": "verify"])
        #expect(resent.status == 202, "\(resent.text)")
        let fresh = try #require(try await harness.latestCode(to: Self.address))
        #expect(fresh != code)
        let mail = try #require(try await harness.mails().last { $0.contains("To: \(Self.address)") })
        #expect(mail.contains("as “\u{2068}다혜\u{2069}”"), "the resent code names the owner's nickname")

        let verified = try await Self.verify(harness, fresh, token: try Self.token(now))
        #expect(verified.status == 200, "\(verified.text)")
        let pair = try #require(try verified.decode(EmailVerified.self).session)
        #expect(pair.user.username == "다혜" && pair.user.mbti == .isfp)
        #expect(try await harness.send("POST", "/auth/login", json: ["email": Self.address, "password": Self.ownerPassword]).status == 200)
        #expect(try await harness.send("POST", "/auth/login", json: ["email": Self.address, "password": Self.strangerPassword]).status == 401)
    }

    @Test("the stranger's token never gets a code: guesses are code_invalid, then the code is spent, and every code goes to the address")
    func strangersTokenGetsNoCode() async throws {
        let (harness, _, strangerToken) = try await Self.replacedSignUp()
        let code = try #require(try await harness.latestCode(to: Self.address))
        let wrong = code == "000000" ? "111111" : "000000"
        var replies: [Reply] = []
        for _ in 0..<5 { replies.append(try await Self.verify(harness, wrong, token: strangerToken)) }
        #expect(replies.prefix(4).allSatisfy { $0.code == "code_invalid" }, "\(replies.map(\.text))")
        #expect(replies[4].code == "too_many_attempts")
        #expect(!replies.contains { $0.text.contains(code) })
        #expect(try await harness.rowCounts()["users"] == 0)
        // A new code for the stranger's sign-up goes to the address, as every code did.
        harness.clock.advance(61)
        #expect(try await harness.send("POST", "/auth/email/code", json: ["email": Self.address, "purpose": "verify"]).status == 202)
        let recipients = try await harness.mails().compactMap { mail in
            mail.split(separator: "\r\n").first { $0.hasPrefix("To: ") }.map(String.init)
        }
        #expect(Set(recipients) == ["To: \(Self.address)"], "\(recipients)")
    }

    @Test("signing in needs the token: without one it is a field error and the code is not tried; a made-up one makes nothing")
    func signInNeedsTheToken() async throws {
        let harness = try await Harness.make()
        let reply = try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        let code = try #require(try await harness.latestCode(to: Self.address))
        for token in [nil, ""] as [String?] {
            let missing = try await Self.verify(harness, code, token: token)
            #expect(missing.status == 422 && missing.code == "validation_failed", "\(missing.text)")
            #expect(missing.fieldCodes("signup_token") == ["required"], "\(missing.text)")
        }
        for malformed in ["short", String(repeating: "A", count: 42) + "=", String(repeating: "é", count: 43)] {
            let refused = try await Self.verify(harness, code, signIn: false, token: malformed)
            #expect(refused.status == 422 && refused.fieldCodes("signup_token") == ["invalid_format"], "\(refused.text)")
        }
        // Nothing was tried or dropped: the same code with the token signs in.
        #expect(try await harness.rowCounts()["pending_signups"] == 1)
        let verified = try await Self.verify(harness, code, token: try Self.token(reply))
        #expect(verified.status == 200 && verified["session"] != nil, "\(verified.text)")

        // A made-up token of the right shape names no sign-up: the right code makes nothing.
        let other = try await Harness.make()
        let signedUp = try await Self.signUp(other, "다혜", password: Self.ownerPassword)
        let second = try #require(try await other.latestCode(to: Self.address))
        let real = try Self.token(signedUp)
        let madeUp = String(real.reversed())
        #expect(Self.shape(madeUp) == "43 base64url" && madeUp != real)
        #expect(try await Self.verify(other, second, token: madeUp).code == "signup_superseded")
        #expect(try await other.counts()[0] == 0 && other.app.metrics.logins(.signUpVerified) == 0)
    }

    @Test("a token of one address's sign-up, sent with another address's code, is refused")
    func tokenOfAnotherAddress() async throws {
        let harness = try await Harness.make()
        let mine = try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        try await Self.signUp(harness, "낯선손님", "victim@example.com", password: Self.strangerPassword)
        let victimsCode = try #require(try await harness.latestCode(to: "victim@example.com"))
        let reply = try await harness.send("POST", "/auth/email/verify", json: [
            "email": "victim@example.com", "code": victimsCode, "sign_in": true, "signup_token": try Self.token(mine),
        ])
        #expect(reply.status == 409 && reply.code == "signup_superseded", "\(reply.text)")
        let rows = try await harness.rowCounts()
        #expect(rows["users"] == 0 && rows["sessions"] == 0 && rows["pending_signups"] == 1, "only the victim's is dropped: \(rows)")
        // The token's own sign-up is untouched: its code and token sign in.
        let code = try #require(try await harness.latestCode(to: Self.address))
        let verified = try await Self.verify(harness, code, token: try Self.token(mine))
        #expect(verified.status == 200 && verified["session"] != nil, "\(verified.text)")
    }

    @Test("a token sent without sign_in is checked as well; the right one verifies without a session")
    func tokenWithoutSignIn() async throws {
        let (harness, ownerToken, strangerToken) = try await Self.replacedSignUp()
        let code = try #require(try await harness.latestCode(to: Self.address))
        #expect(try await Self.verify(harness, code, signIn: false, token: ownerToken).code == "signup_superseded")

        let other = try await Harness.make()
        let reply = try await Self.signUp(other, "다혜", password: Self.ownerPassword)
        let own = try #require(try await other.latestCode(to: Self.address))
        let verified = try await Self.verify(other, own, signIn: false, token: try Self.token(reply))
        #expect(verified.status == 200 && verified["session"] == nil, "\(verified.text)")
        #expect(try await other.rowCounts()["users"] == 1)
        #expect(strangerToken != ownerToken)
    }

    @Test("a token still names its sign-up after the code is mailed again")
    func tokenOutlivesAResentCode() async throws {
        let harness = try await Harness.make()
        let reply = try await Self.signUp(harness, "다혜", password: Self.ownerPassword)
        harness.clock.advance(61)
        try await harness.send("POST", "/auth/email/code", json: ["email": Self.address, "purpose": "verify"])
        let code = try #require(try await harness.latestCode(to: Self.address))
        let verified = try await Self.verify(harness, code, token: try Self.token(reply))
        #expect(verified.status == 200 && verified["session"] != nil, "\(verified.text)")
    }

    @Test("without sign_in and a token the request is the original one: the newest code completes the newest sign-up")
    func plainVerifyKeepsItsContract() async throws {
        // The residual risk README's security section names: an old client cannot say which
        // sign-up it made, so the mail's nickname is the owner's only warning.
        let (harness, _, _) = try await Self.replacedSignUp()
        let code = try #require(try await harness.latestCode(to: Self.address))
        let plain = try await Self.verify(harness, code, signIn: false, token: nil)
        #expect(plain.status == 200 && Set(plain.json.keys) == ["email", "verified", "email_verification_token"], "\(plain.text)")
        #expect(try await harness.rowCounts()["sessions"] == 0)
        #expect(try await harness.send("POST", "/auth/login", json: ["email": Self.address, "password": Self.strangerPassword]).status == 200)
    }

    @Test("a free and a taken address get the same reply, with a token of the same shape")
    func sameShapeForTakenAndFree() async throws {
        let harness = try await Harness.make()
        _ = try await harness.signedInUser("주인", email: "taken@example.com", password: "violet lantern harbor")
        harness.clock.advance(61)
        let taken = try await Self.signUp(harness, "빌린이름", "TAKEN@example.com", password: Self.strangerPassword)
        let free = try await Self.signUp(harness, "새이름", "free@example.com", password: Self.strangerPassword)
        #expect(observable(taken) == observable(free))
        #expect(Set(taken.json.keys) == ["email", "verification", "expires_in", "signup_token"])
        #expect(Self.shape(try Self.token(taken)) == Self.shape(try Self.token(free)))
        #expect(try Self.token(taken) != (try Self.token(free)))
    }
}
