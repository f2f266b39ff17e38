import AccountAPI
import Foundation
import Testing
import TestSupport
@testable import AccountCore
@testable import AccountServer

/// `POST /auth/email/verify` with `sign_in: true`: a code that completes a details-first sign-up
/// in time also signs the new account in; nothing else does, and a wrong code tells nothing more.
@Suite("Verify signs in")
struct VerifySignInTests {
    static let password = "correct horse battery"

    /// A details-first sign-up of `email` (202); returns its `signup_token`.
    @discardableResult
    static func signUp(_ harness: Harness, _ username: String, _ email: String, password: String = password) async throws -> String {
        let reply = try await harness.send("POST", "/auth/signup", json: [
            "username": username, "email": email, "password": password, "password_confirmation": password, "mbti": "infj",
        ])
        try #require(reply.status == 202, "\(reply.text)")
        return try #require(reply["signup_token"] as? String, "\(reply.text)")
    }

    static func verify(
        _ harness: Harness, _ email: String, _ code: String, signIn: Bool?, token: String? = nil, userAgent: String = "VerifyTests/1.0"
    ) async throws -> Reply {
        var body: [String: Any] = ["email": email, "code": code]
        if let signIn { body["sign_in"] = signIn }
        if let token { body["signup_token"] = token }
        return try await harness.send("POST", "/auth/email/verify", json: body, headers: ["User-Agent": userAgent])
    }

    @Test("in time, the code makes the account and signs it in: a login's session, its User-Agent, counted as a login")
    func signsIn() async throws {
        let harness = try await Harness.make()
        let token = try await Self.signUp(harness, "서연", "seoyeon@example.com")
        harness.clock.advance(60)
        let code = try #require(try await harness.latestCode(to: "seoyeon@example.com"))
        let reply = try await Self.verify(harness, "Seoyeon@Example.com", code, signIn: true, token: token)
        #expect(reply.status == 200, "\(reply.text)")
        let verified = try reply.decode(EmailVerified.self)
        let pair = try #require(verified.session)
        #expect(verified.verified && verified.email == "Seoyeon@Example.com")
        #expect(pair.tokenType == "Bearer" && pair.expiresIn == 900 && pair.refreshExpiresIn > 0)
        #expect(pair.user.username == "서연" && pair.user.emailVerified && pair.user.mbti == .infj)

        let me = try await harness.send("GET", "/auth/me", token: pair.access)
        #expect(me.status == 200 && me["id"] as? String == pair.user.id.uuidString.lowercased())
        let sessions = try await harness.send("GET", "/auth/sessions", token: pair.access)
        let list = try sessions.decode(SessionList.self)
        #expect(list.sessions.count == 1)
        #expect(list.sessions.first?.userAgent == "VerifyTests/1.0", "the session names the device that verified")
        #expect(try await harness.send("POST", "/auth/refresh", json: ["refresh": pair.refresh]).status == 200)
        #expect(harness.app.metrics.logins(.signUpVerified) == 1)
        #expect(harness.app.metrics.logins(.success) == 0, "no password login happened")
        // The password still logs in, as for any account.
        #expect(try await harness.send("POST", "/auth/login", json: ["email": "seoyeon@example.com", "password": Self.password]).status == 200)
    }

    @Test("without sign_in the reply is the original one, member for member, and no session is opened")
    func originalRequestUnchanged() async throws {
        let harness = try await Harness.make()
        try await Self.signUp(harness, "도윤", "doyoon@example.com")
        let code = try #require(try await harness.latestCode(to: "doyoon@example.com"))
        let reply = try await Self.verify(harness, "doyoon@example.com", code, signIn: nil)
        #expect(reply.status == 200)
        #expect(Set(reply.json.keys) == ["email", "verified", "email_verification_token"])
        #expect(try await harness.rowCounts()["sessions"] == 0)

        // `sign_in: false` is the same.
        try await Self.signUp(harness, "하준", "hajun@example.com")
        let second = try #require(try await harness.latestCode(to: "hajun@example.com"))
        let off = try await Self.verify(harness, "hajun@example.com", second, signIn: false)
        #expect(Set(off.json.keys) == ["email", "verified", "email_verification_token"])
        #expect(try await harness.rowCounts()["sessions"] == 0)
    }

    @Test("after the window the code still verifies and makes the account, but signs nobody in")
    func boundInTime() async throws {
        let harness = try await Harness.make()
        let token = try await Self.signUp(harness, "지호", "jiho@example.com")
        // A new code (the first one expired) mailed just before the window ends, used just after it.
        harness.clock.advance(1790)
        let resent = try await harness.send("POST", "/auth/email/code", json: ["email": "jiho@example.com", "purpose": "verify"])
        #expect(resent.status == 202)
        let code = try #require(try await harness.latestCode(to: "jiho@example.com"))
        harness.clock.advance(20)
        let reply = try await Self.verify(harness, "jiho@example.com", code, signIn: true, token: token)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply["session"] == nil)
        #expect(try await harness.rowCounts()["sessions"] == 0)
        #expect(try await harness.rowCounts()["users"] == 1, "the account is made all the same")
        #expect(harness.app.metrics.logins(.signUpVerified) == 0)
        #expect(try await harness.send("POST", "/auth/login", json: ["email": "jiho@example.com", "password": Self.password]).status == 200)
    }

    @Test("a window of 0 turns signing in at verification off")
    func windowOff() async throws {
        let harness = try await Harness.make { $0.verifySignInWindow = 0 }
        let token = try await Self.signUp(harness, "유나", "yuna@example.com")
        let code = try #require(try await harness.latestCode(to: "yuna@example.com"))
        let reply = try await Self.verify(harness, "yuna@example.com", code, signIn: true, token: token)
        #expect(reply.status == 200 && reply["session"] == nil)
        #expect(try await harness.rowCounts()["sessions"] == 0)
    }

    @Test("wrong codes answer alike with and without sign_in, share the code's five tries, and open nothing")
    func guessingGainsNothing() async throws {
        let harness = try await Harness.make()
        let token = try await Self.signUp(harness, "민준", "minjun@example.com")
        let code = try #require(try await harness.latestCode(to: "minjun@example.com"))
        let wrong = code == "000000" ? "111111" : "000000"
        var replies: [Reply] = []
        for index in 0..<5 {
            let signIn = index.isMultiple(of: 2)
            replies.append(try await Self.verify(harness, "minjun@example.com", wrong, signIn: signIn ? true : nil, token: signIn ? token : nil))
        }
        #expect(replies.prefix(4).allSatisfy { $0.status == 400 && $0.code == "code_invalid" })
        #expect(replies[0].text == replies[1].text, "sign_in changes nothing in a refusal")
        #expect(replies[4].status == 429 && replies[4].code == "too_many_attempts", "sign_in gives no extra tries")
        // The spent code is spent for a request with sign_in too, even when right.
        let late = try await Self.verify(harness, "minjun@example.com", code, signIn: true, token: token)
        #expect(late.status == 429 && late.code == "too_many_attempts")
        #expect(try await harness.rowCounts()["sessions"] == 0)
        #expect(try await harness.rowCounts()["users"] == 0)

        // A wrong code for an address with nothing pending: the same refusal, with or without sign_in
        // (and a token of the right shape, which names no sign-up).
        let unknown = try await Self.verify(harness, "nobody@example.com", "123456", signIn: true, token: String(repeating: "A", count: 43))
        let unknownPlain = try await Self.verify(harness, "nobody@example.com", "123456", signIn: nil)
        #expect(unknown.status == 400 && unknown.text == unknownPlain.text)
    }

    @Test("a code that makes no account signs nobody in: email-first codes, and an unverified account from before")
    func onlyACompletedSignUpSignsIn() async throws {
        // Email first: a `signup` code proves the address; the token signs up.
        let harness = try await Harness.make()
        try await harness.send("POST", "/auth/email/code", json: ["email": "first@example.com", "purpose": "signup"])
        let signupCode = try #require(try await harness.latestCode(to: "first@example.com"))
        // (An email-first flow has no sign-up token; one of the right shape is sent to reach the code.)
        let proven = try await Self.verify(harness, "first@example.com", signupCode, signIn: true, token: String(repeating: "A", count: 43))
        #expect(proven.status == 200 && proven["session"] == nil && proven["email_verification_token"] != nil, "\(proven.text)")

        // An account made unverified at sign-up (unverified logins allowed then): verifying it later signs nobody in.
        let legacy = try await Harness.make { $0.allowUnverifiedLogin = true }
        let token = try await Self.signUp(legacy, "예준", "yejun@example.com")
        let code = try #require(try await legacy.latestCode(to: "yejun@example.com"))
        let verified = try await Self.verify(legacy, "yejun@example.com", code, signIn: true, token: token)
        #expect(verified.status == 200 && verified["session"] == nil)
        #expect(try await legacy.rowCounts()["sessions"] == 0)
        #expect(try await harness.rowCounts()["sessions"] == 0)
    }

    @Test("a stranger's sign-up of a taken address never completes, so its owner's code signs nobody in")
    func strangersPendingSignUp() async throws {
        // The owner's account is unverified (from before), so the owner can get a `verify` code.
        let harness = try await Harness.make { $0.allowUnverifiedLogin = true; $0.mailInterval = 0 }
        let ownersToken = try await Self.signUp(harness, "집주인", "owner@example.com")
        // A stranger signs up the same address with another nickname and password: held, no account.
        let stranger = try await harness.send("POST", "/auth/signup", json: [
            "username": "낯선이", "email": "owner@example.com", "password": "stranger horse battery", "mbti": "estp",
        ])
        #expect(stranger.status == 202)
        _ = try await harness.mails()   // the notice goes out first; the code mailed next is the newest
        try await Task.sleep(for: .milliseconds(5))
        try await harness.send("POST", "/auth/email/code", json: ["email": "owner@example.com", "purpose": "verify"])
        let code = try #require(try await harness.latestCode(to: "owner@example.com"))
        // The owner's token names the owner's sign-up (whose account exists): not refused, and nothing signs in.
        let reply = try await Self.verify(harness, "owner@example.com", code, signIn: true, token: ownersToken)
        #expect(reply.status == 200 && reply["session"] == nil, "\(reply.text)")
        #expect(try await harness.rowCounts()["sessions"] == 0)
        let strangerLogin = try await harness.send("POST", "/auth/login", json: ["email": "owner@example.com", "password": "stranger horse battery"])
        #expect(strangerLogin.status == 401, "the stranger's password never became the account's")
    }

    @Test("an address backed off for failed logins is not signed in at verification")
    func honoursTheBackOff() async throws {
        let harness = try await Harness.make()
        let token = try await Self.signUp(harness, "시우", "siwoo@example.com")
        // Someone guesses the pending sign-up's password until the address is backed off.
        var last: Reply?
        for _ in 0..<6 {
            last = try await harness.send("POST", "/auth/login", json: ["email": "siwoo@example.com", "password": "wrong horse battery"])
        }
        #expect(last?.status == 429)
        let code = try #require(try await harness.latestCode(to: "siwoo@example.com"))
        let reply = try await Self.verify(harness, "siwoo@example.com", code, signIn: true, token: token)
        #expect(reply.status == 200 && reply["session"] == nil, "\(reply.text)")
        #expect(try await harness.rowCounts()["sessions"] == 0)
        #expect(harness.app.metrics.logins(.signUpVerified) == 0)
    }

    @Test("a successful sign-in at verification clears the address's failed-login count")
    func clearsTheCount() async throws {
        let harness = try await Harness.make()
        let token = try await Self.signUp(harness, "하은", "haeun@example.com")
        for _ in 0..<3 {
            try await harness.send("POST", "/auth/login", json: ["email": "haeun@example.com", "password": "wrong horse battery"])
        }
        let code = try #require(try await harness.latestCode(to: "haeun@example.com"))
        let reply = try await Self.verify(harness, "haeun@example.com", code, signIn: true, token: token)
        #expect(reply["session"] != nil, "\(reply.text)")
        #expect(try await harness.rowCounts()["login_throttles"] == 0)
    }

    @Test("the session's user is the account as stored, even a moment before a second turns")
    func theUserIsAsStored() async throws {
        let harness = try await Harness.make()
        let token = try await Self.signUp(harness, "초침", "second@example.com")
        let code = try #require(try await harness.latestCode(to: "second@example.com"))
        // The store keeps milliseconds; the wire shows whole seconds.
        let now = harness.clock.now.timeIntervalSince1970
        harness.clock.advance(now.rounded(.down) + 60.9998 - now)
        let pair = try #require(try await Self.verify(harness, "second@example.com", code, signIn: true, token: token).decode(EmailVerified.self).session)
        let me = try await harness.send("GET", "/auth/me", token: pair.access).decode(User.self)
        #expect(me.createdAt == pair.user.createdAt)
        #expect(me == pair.user)
    }
}
