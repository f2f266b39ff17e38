import AccountAPI
import Foundation
import Testing
import TestSupport

/// `POST /auth/email/verify` with `sign_in: true`: a code that completes a details-first sign-up
/// in time also signs the new account in; nothing else does, and a wrong code tells nothing more.
enum VerifySignInScenarios {
    static let all = Scenario.set("Verify signs in", [
        ("in time, the code makes the account and signs it in: a login's session, its User-Agent, counted as a login", signsIn),
        ("without sign_in the reply is the original one, member for member, and no session is opened", originalRequestUnchanged),
        ("after the window the code still verifies and makes the account, but signs nobody in", boundInTime),
        ("a window of 0 turns signing in at verification off", windowOff),
        ("wrong codes answer alike with and without sign_in, share the code's five tries, and open nothing", guessingGainsNothing),
        ("a code that makes no account signs nobody in: email-first codes, and an unverified account from before", onlyACompletedSignUpSignsIn),
        ("a stranger's sign-up of a taken address never completes, so its owner's code signs nobody in", strangersPendingSignUp),
        ("an address backed off for failed logins is not signed in at verification", honoursTheBackOff),
        ("a successful sign-in at verification clears the address's failed-login count", clearsTheCount),
        ("the token binds the code to its own sign-up: useless without the code, no good for another address", tokenNamesItsOwnSignUp),
        ("a sign-up alone signs in at verification without the token", signUpAloneSignsIn),
    ])

    static let password = "correct horse battery"

    /// A details-first sign-up of `email` (202); returns its `signup_token`.
    @discardableResult
    static func signUp(_ server: any TestServer, _ username: String, _ email: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let accepted = try await server.signUp(TestAccount(username: username, email: email, password: password, mbti: .infj), sourceLocation: sourceLocation)
        return try #require(accepted.signUpToken, sourceLocation: sourceLocation)
    }

    static func verify(
        _ server: any TestServer, _ email: String, _ code: String, signIn: Bool?, token: String? = nil, userAgent: String = "VerifyTests/1.0"
    ) async throws -> Reply {
        var body: [String: Any] = ["email": email, "code": code]
        if let signIn { body["sign_in"] = signIn }
        if let token { body["signup_token"] = token }
        return try await server.send("POST", "/auth/email/verify", json: body, headers: ["User-Agent": userAgent])
    }

    /// `account_logins_total{outcome=…}` of `server`.
    static func logins(_ server: any TestServer, _ outcome: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Int {
        try await server.metric("account_logins_total{outcome=\"\(outcome)\"}", sourceLocation: sourceLocation)
    }

    static func signsIn(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let token = try await signUp(server, "서연", "seoyeon@example.com")
        server.clock.advance(60)
        let code = try await server.mail.code(to: "seoyeon@example.com")
        // The SDK's request, as it encodes it.
        let body = try AccountJSON.makeEncoder().encode(EmailVerifyRequest(email: "Seoyeon@Example.com", code: code, signIn: true, signUpToken: token))
        #expect(String(decoding: body, as: UTF8.self).contains(#""sign_in":true,"signup_token":"\#(token)""#))
        let reply = try await server.send("POST", "/auth/email/verify", body: body, contentType: "application/json", headers: ["User-Agent": "VerifyTests/1.0"])
        #expect(reply.status == 200, "\(reply.text)")
        let verified = try reply.decode(EmailVerified.self)
        let pair = try #require(verified.session)
        #expect(verified.verified && verified.email == "Seoyeon@Example.com")
        #expect(pair.tokenType == "Bearer" && pair.expiresIn == 900 && pair.refreshExpiresIn > 0)
        #expect(pair.user.username == "서연" && pair.user.emailVerified && pair.user.mbti == .infj)

        let me = try await server.me(pair.access)
        #expect(me.status == 200 && me["id"] as? String == pair.user.id.uuidString.lowercased())
        #expect(try me.decode(User.self) == pair.user)
        let list = try await server.send("GET", "/auth/sessions", token: pair.access).decode(SessionList.self)
        #expect(list.sessions.map(\.userAgent) == ["VerifyTests/1.0"], "the session names the device that verified")
        #expect(try await server.refresh(pair.refresh).status == 200)
        #expect(try await logins(server, "signup_verified") == 1)
        #expect(try await logins(server, "success") == 0, "no password login happened")
        // The password still logs in, as for any account.
        #expect(try await server.send("POST", "/auth/login", json: ["email": "seoyeon@example.com", "password": password]).status == 200)
        await server.stop()
    }

    static func originalRequestUnchanged(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        try await signUp(server, "도윤", "doyoon@example.com")
        let code = try await server.mail.code(to: "doyoon@example.com")
        let reply = try await verify(server, "doyoon@example.com", code, signIn: nil)
        #expect(reply.status == 200)
        #expect(Set(reply.json.keys) == ["email", "verified", "email_verification_token"])
        #expect(try await server.rowCounts()["sessions"] == 0)

        // `sign_in: false` is the same.
        try await signUp(server, "하준", "hajun@example.com")
        let second = try await server.mail.code(to: "hajun@example.com")
        let off = try await verify(server, "hajun@example.com", second, signIn: false)
        #expect(Set(off.json.keys) == ["email", "verified", "email_verification_token"])
        #expect(try await server.rowCounts()["sessions"] == 0)
        await server.stop()
    }

    static func boundInTime(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let token = try await signUp(server, "지호", "jiho@example.com")
        _ = try await server.mail.code(to: "jiho@example.com")
        // A new code (the first one expired) mailed just before the window ends, used just after it.
        server.clock.advance(1790)
        let resent = try await server.send("POST", "/auth/email/code", json: ["email": "jiho@example.com", "purpose": "verify"])
        #expect(resent.status == 202)
        let code = try await server.mail.code(to: "jiho@example.com", skipping: 1)
        server.clock.advance(20)
        let reply = try await verify(server, "jiho@example.com", code, signIn: true, token: token)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply["session"] == nil)
        let counts = try await server.rowCounts()
        #expect(counts["sessions"] == 0)
        #expect(counts["users"] == 1, "the account is made all the same")
        #expect(try await logins(server, "signup_verified") == 0)
        #expect(try await server.send("POST", "/auth/login", json: ["email": "jiho@example.com", "password": password]).status == 200)
        await server.stop()
    }

    static func windowOff(_ kind: any TestServerKind) async throws {
        let server = try await kind.start(["--verify-sign-in-window", "0"])
        let account = TestAccount(username: "유나", email: "yuna@example.com", password: password, mbti: .infj)
        let token = try #require(try await server.signUp(account).signUpToken)
        let code = try await server.mail.code(to: "yuna@example.com")
        let reply = try await verify(server, "yuna@example.com", code, signIn: true, token: token)
        #expect(reply.status == 200 && reply["session"] == nil)
        #expect(reply["email_verification_token"] != nil)
        #expect(try await server.rowCounts()["sessions"] == 0)
        // The password logs in as always.
        _ = try await server.logIn(account)
        await server.stop()
    }

    static func guessingGainsNothing(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let token = try await signUp(server, "민준", "minjun@example.com")
        let code = try await server.mail.code(to: "minjun@example.com")
        let wrong = code == "000000" ? "111111" : "000000"
        var replies: [Reply] = []
        for index in 0..<5 {
            let signIn = index.isMultiple(of: 2)
            replies.append(try await verify(server, "minjun@example.com", wrong, signIn: signIn ? true : nil, token: signIn ? token : nil))
        }
        #expect(replies.prefix(4).allSatisfy { $0.status == 400 && $0.code == "code_invalid" })
        #expect(replies[0].text == replies[1].text, "sign_in changes nothing in a refusal")
        #expect(replies[4].status == 429 && replies[4].code == "too_many_attempts", "sign_in gives no extra tries")
        // The spent code is spent for a request with sign_in too, even when right.
        let late = try await verify(server, "minjun@example.com", code, signIn: true, token: token)
        #expect(late.status == 429 && late.code == "too_many_attempts")
        let counts = try await server.rowCounts()
        #expect(counts["sessions"] == 0)
        #expect(counts["users"] == 0)

        // A wrong code for an address with nothing pending: the same refusal, with or without sign_in
        // (and a token of the right shape, which names no sign-up).
        let unknown = try await verify(server, "nobody@example.com", "123456", signIn: true, token: String(repeating: "A", count: 43))
        let unknownPlain = try await verify(server, "nobody@example.com", "123456", signIn: nil)
        #expect(unknown.status == 400 && unknown.text == unknownPlain.text)
        await server.stop()
    }

    static func onlyACompletedSignUpSignsIn(_ kind: any TestServerKind) async throws {
        // Email first: a `signup` code proves the address; the token signs up.
        let server = try await kind.start()
        try await server.send("POST", "/auth/email/code", json: ["email": "first@example.com", "purpose": "signup"])
        let signupCode = try await server.mail.code(to: "first@example.com")
        // (An email-first flow has no sign-up token; one of the right shape is sent to reach the code.)
        let proven = try await verify(server, "first@example.com", signupCode, signIn: true, token: String(repeating: "A", count: 43))
        #expect(proven.status == 200 && proven["session"] == nil && proven["email_verification_token"] != nil, "\(proven.text)")

        // An account made unverified at sign-up (unverified logins allowed then): verifying it later signs nobody in.
        let legacy = try await kind.start(["--allow-unverified-login"])
        let token = try await signUp(legacy, "예준", "yejun@example.com")
        let code = try await legacy.mail.code(to: "yejun@example.com")
        let verified = try await verify(legacy, "yejun@example.com", code, signIn: true, token: token)
        #expect(verified.status == 200 && verified["session"] == nil)
        #expect(try await legacy.rowCounts()["sessions"] == 0)
        #expect(try await server.rowCounts()["sessions"] == 0)
        await legacy.stop()
        await server.stop()
    }

    static func strangersPendingSignUp(_ kind: any TestServerKind) async throws {
        // The owner's account is unverified (from before), so the owner can get a `verify` code.
        let server = try await kind.start(["--allow-unverified-login", "--mail-interval", "0"])
        let ownersToken = try await signUp(server, "집주인", "owner@example.com")
        // A stranger signs up the same address with another nickname and password: held, no account.
        let stranger = try await server.send("POST", "/auth/signup", json: [
            "username": "낯선이", "email": "owner@example.com", "password": "stranger horse battery", "mbti": "estp",
        ])
        #expect(stranger.status == 202)
        // The sign-up's code, then the notice of the stranger's sign-up, go out before the code mailed next.
        try await server.mail.arrived(2, to: "owner@example.com")
        try await Task.sleep(for: .milliseconds(5))
        try await server.send("POST", "/auth/email/code", json: ["email": "owner@example.com", "purpose": "verify"])
        let code = try await server.mail.code(to: "owner@example.com", skipping: 2)
        // The owner's token names the owner's sign-up (whose account exists): not refused, and nothing signs in.
        let reply = try await verify(server, "owner@example.com", code, signIn: true, token: ownersToken)
        #expect(reply.status == 200 && reply["session"] == nil, "\(reply.text)")
        #expect(try await server.rowCounts()["sessions"] == 0)
        let strangerLogin = try await server.send("POST", "/auth/login", json: ["email": "owner@example.com", "password": "stranger horse battery"])
        #expect(strangerLogin.status == 401, "the stranger's password never became the account's")
        await server.stop()
    }

    static func honoursTheBackOff(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let token = try await signUp(server, "시우", "siwoo@example.com")
        // Someone guesses the pending sign-up's password until the address is backed off.
        var last: Reply?
        for _ in 0..<6 {
            last = try await server.send("POST", "/auth/login", json: ["email": "siwoo@example.com", "password": "wrong horse battery"])
        }
        #expect(last?.status == 429)
        let code = try await server.mail.code(to: "siwoo@example.com")
        let reply = try await verify(server, "siwoo@example.com", code, signIn: true, token: token)
        #expect(reply.status == 200 && reply["session"] == nil, "\(reply.text)")
        #expect(try await server.rowCounts()["sessions"] == 0)
        #expect(try await logins(server, "signup_verified") == 0)
        await server.stop()
    }

    static func clearsTheCount(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let token = try await signUp(server, "하은", "haeun@example.com")
        for _ in 0..<3 {
            try await server.send("POST", "/auth/login", json: ["email": "haeun@example.com", "password": "wrong horse battery"])
        }
        let code = try await server.mail.code(to: "haeun@example.com")
        let reply = try await verify(server, "haeun@example.com", code, signIn: true, token: token)
        #expect(reply["session"] != nil, "\(reply.text)")
        #expect(try await server.rowCounts()["login_throttles"] == 0)
        await server.stop()
    }

    static func tokenNamesItsOwnSignUp(_ kind: any TestServerKind) async throws {
        let server = try await kind.start(["--mail-interval", "0"])
        let owner = TestAccount("tokenown")
        let ownerToken = try #require(try await server.signUp(owner).signUpToken)
        let code = try await server.mail.code(to: owner.email)
        let other = TestAccount("tokenother")
        let otherToken = try #require(try await server.signUp(other).signUpToken)
        let otherCode = try await server.mail.code(to: other.email)

        // An empty token: a field error, and the code is not tried.
        let empty = try await server.send("POST", "/auth/email/verify", json: ["email": owner.email, "code": code, "sign_in": true, "signup_token": ""])
        #expect(empty.status == 422 && empty.problem?.code == .validationFailed, "\(empty.text)")
        #expect(empty.problem?.errors?["signup_token"]?.map(\.code) == [.invalidFormat], "\(empty.text)")

        // A token alone gets nothing: a guessed code is the same code_invalid as without it.
        let wrong = code == "000000" ? "111111" : "000000"
        let guessed = try await server.send("POST", "/auth/email/verify", json: ["email": owner.email, "code": wrong, "sign_in": true, "signup_token": ownerToken])
        let plainGuess = try await server.send("POST", "/auth/email/verify", json: ["email": owner.email, "code": wrong])
        #expect(guessed.status == 400 && guessed.problem?.code == .codeInvalid, "\(guessed.text)")
        #expect(guessed.text == plainGuess.text)

        // The other address's token with that address's right code: refused, nothing made there.
        let crossed = try await server.send("POST", "/auth/email/verify", json: ["email": other.email, "code": otherCode, "sign_in": true, "signup_token": ownerToken])
        #expect(crossed.status == 409 && crossed.problem?.code == .signUpSuperseded, "\(crossed.text)")
        let otherLogin = try await server.send("POST", "/auth/login", json: ["email": other.email, "password": other.password])
        #expect(otherLogin.status == 401, "the crossed sign-up made no account: \(otherLogin.text)")
        #expect(otherToken != ownerToken)

        // The owner's code with the owner's token, after all that: signed in.
        let verified = try await server.send("POST", "/auth/email/verify", json: ["email": owner.email, "code": code, "sign_in": true, "signup_token": ownerToken])
        #expect(verified.status == 200, "\(verified.text)")
        #expect(try verified.decode(EmailVerified.self).session?.user.username == owner.username)
        await server.stop()
    }

    static func signUpAloneSignsIn(_ kind: any TestServerKind) async throws {
        let server = try await kind.start()
        let account = TestAccount("notoken")
        try await server.signUp(account)
        let code = try await server.mail.code(to: account.email)
        let reply = try await server.send("POST", "/auth/email/verify", json: ["email": account.email, "code": code, "sign_in": true])
        #expect(reply.status == 200, "\(reply.text)")
        let pair = try #require(try reply.decode(EmailVerified.self).session, "\(reply.text)")
        #expect(pair.user.username == account.username)
        #expect(try await server.me(pair.access).status == 200)
        await server.stop()
    }
}
