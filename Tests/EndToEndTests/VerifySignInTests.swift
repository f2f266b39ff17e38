import AccountAPI
import Foundation
import TestSupport
import Testing

extension ServerProcess {
    /// A details-first sign-up sent as a client with `userAgent`, forwarded as `address` by the
    /// loopback peer when given (the server must trust 127.0.0.1 as a proxy); its `signup_token`.
    func signUp(_ account: TestAccount, userAgent: String, address: String? = nil) async throws -> String {
        var headers = ["User-Agent": userAgent]
        if let address { headers["X-Forwarded-For"] = address }
        let body = try AccountJSON.makeEncoder().encode(account.signUpRequest)
        let reply = try await client.send("POST", "/auth/signup", body: body, contentType: "application/json", headers: headers)
        try #require(reply.status == 202, "sign-up: \(reply.status) \(reply.text)")
        return try #require(try reply.decode(SignUpAccepted.self).signUpToken)
    }
}

/// Verifying a details-first sign-up's code with `sign_in: true` signs in, over HTTP against the
/// real binary: the session works, names the device, is logged and counted; off with a window of
/// 0; and never for a sign-up a newer one of the address replaced: with the replaced sign-up's
/// token, or without a token when the newer one came from another client (contested).
@Suite struct VerifySignInTests {
    @Test func theCodeOfAFreshSignUpSignsTheNewAccountIn() async throws {
        let server = try await ServerProcess.start()
        let account = TestAccount("verifyin")
        let accepted = try await server.signUp(account)
        let code = try await server.mail.code(to: account.email)
        let token = try #require(accepted.signUpToken)
        let body = try AccountJSON.makeEncoder().encode(EmailVerifyRequest(email: account.email, code: code, signIn: true, signUpToken: token))
        #expect(String(decoding: body, as: UTF8.self).contains(#""sign_in":true,"signup_token":"\#(token)""#))
        let reply = try await server.client.send(
            "POST", "/auth/email/verify", body: body, contentType: "application/json", headers: ["User-Agent": "QuickStart/1.0 (e2e)"])
        #expect(reply.status == 200, "\(reply.text)")
        let verified = try reply.decode(EmailVerified.self)
        let pair = try #require(verified.session, "\(reply.text)")
        #expect(pair.user.username == account.username && pair.user.emailVerified)

        let me = try await server.me(pair.access)
        #expect(try me.decode(User.self) == pair.user)
        let sessions = try await server.client.send("GET", "/auth/sessions", token: pair.access).decode(SessionList.self)
        #expect(sessions.sessions.map(\.userAgent) == ["QuickStart/1.0 (e2e)"])
        #expect(try await server.refresh(pair.refresh).status == 200)

        let metrics = try await server.client.send("GET", "/metrics")
        #expect(metrics.text.contains(#"account_logins_total{outcome="signup_verified"} 1"#), "\(metrics.text)")
        await server.stop()
        let lines = server.logs.split(separator: "\n").filter { $0.contains(#""event":"login_succeeded""#) }
        #expect(lines.count == 1 && lines.first?.contains(#""via":"email_verify""#) == true, "\(lines)")
        #expect(!server.logs.contains(code) && !server.logs.contains(pair.refresh) && !server.logs.contains(token), "no secret in the log")
    }

    @Test func theOriginalRequestAndAWindowOfZeroOpenNoSession() async throws {
        let server = try await ServerProcess.start(in: nil, ["--verify-sign-in-window", "0"])
        let account = TestAccount("windowoff")
        let token = try #require(try await server.signUp(account).signUpToken)
        let code = try await server.mail.code(to: account.email)
        let reply = try await server.client.send(
            "POST", "/auth/email/verify", json: ["email": account.email, "code": code, "sign_in": true, "signup_token": token])
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.object?["session"] == nil && reply.object?["email_verification_token"] != nil)
        // The password logs in as always.
        _ = try await server.logIn(account)

        // The original app's request, on a default server: the reply it always had.
        let plain = try await ServerProcess.start()
        let other = TestAccount("plain")
        try await plain.signUp(other)
        let verified = try await plain.client.send(
            "POST", "/auth/email/verify", json: ["email": other.email, "code": try await plain.mail.code(to: other.email)])
        #expect(Set(verified.object.map { Array($0.keys) } ?? []) == ["email", "verified", "email_verification_token"])
        await plain.stop()
        await server.stop()
    }

    /// Pre-hijacking: the owner signs up, a stranger signs the same address up with a password of
    /// their own, and the owner types the newest code (the stranger's sign-up's).
    @Test func aNewerSignUpOfTheAddressCannotSignTheOwnerIn() async throws {
        let server = try await ServerProcess.start(in: nil, ["--mail-interval", "0"])
        let owner = TestAccount("owner")
        let ownerToken = try #require(try await server.signUp(owner).signUpToken)
        _ = try await server.mail.code(to: owner.email)   // the owner's own mail first
        let stranger = TestAccount(username: "stranger_\(owner.username.suffix(8))", email: owner.email, password: "Pw-stranger horse battery")
        let strangerToken = try #require(try await server.signUp(stranger).signUpToken)
        #expect(strangerToken != ownerToken && strangerToken.count == ownerToken.count)
        let code = try await server.mail.code(to: owner.email, skipping: 1)
        let mail = try #require(server.mail.messages(to: owner.email).last)
        #expect(mail.contains("\u{2068}stranger_"), "the code's mail names the stranger's nickname:\n\(mail)")
        #expect(!mail.contains(owner.username))

        let refused = try await server.client.send(
            "POST", "/auth/email/verify", json: ["email": owner.email, "code": code, "sign_in": true, "signup_token": ownerToken])
        #expect(refused.status == 409 && refused.object?["code"] as? String == "signup_superseded", "\(refused.text)")
        #expect(refused.object?["session"] == nil && refused.object?["email_verification_token"] == nil)
        let replay = try await server.client.send("POST", "/auth/email/verify", json: ["email": owner.email, "code": code])
        #expect(replay.status == 400 && replay.object?["code"] as? String == "code_invalid", "the code is spent: \(replay.text)")
        let strangerLogin = try await server.client.send("POST", "/auth/login", json: ["email": owner.email, "password": stranger.password])
        #expect(strangerLogin.status == 401, "no account with the stranger's password: \(strangerLogin.text)")

        // The owner signs up again and is signed in with the owner's details.
        let again = try #require(try await server.signUp(owner).signUpToken)
        let fresh = try await server.mail.code(to: owner.email, skipping: 2)
        let verified = try await server.client.send(
            "POST", "/auth/email/verify", json: ["email": owner.email, "code": fresh, "sign_in": true, "signup_token": again])
        #expect(verified.status == 200, "\(verified.text)")
        let pair = try #require(try verified.decode(EmailVerified.self).session)
        #expect(pair.user.username == owner.username)
        _ = try await server.logIn(owner)
        await server.stop()
        #expect(server.logs.contains(#""event":"signup_superseded""#), "the refusal is a security event")
        #expect(!server.logs.contains(ownerToken) && !server.logs.contains(strangerToken) && !server.logs.contains(code), "no secret in the log")
    }

    /// The token binds the code to one sign-up: useless without the code, and no good for another
    /// address.
    @Test func aTokenNamesItsOwnSignUpOnly() async throws {
        let server = try await ServerProcess.start(in: nil, ["--mail-interval", "0"])
        let owner = TestAccount("tokenown")
        let ownerToken = try #require(try await server.signUp(owner).signUpToken)
        let code = try await server.mail.code(to: owner.email)
        let other = TestAccount("tokenother")
        let otherToken = try #require(try await server.signUp(other).signUpToken)
        let otherCode = try await server.mail.code(to: other.email)

        // An empty token: a field error, and the code is not tried.
        let empty = try await server.client.send(
            "POST", "/auth/email/verify", json: ["email": owner.email, "code": code, "sign_in": true, "signup_token": ""])
        #expect(empty.status == 422 && empty.problem?.code == .validationFailed, "\(empty.text)")
        #expect(empty.problem?.errors?["signup_token"]?.map(\.code) == [.invalidFormat], "\(empty.text)")

        // A token alone gets nothing: a guessed code is the same code_invalid as without it.
        let wrong = code == "000000" ? "111111" : "000000"
        let guessed = try await server.client.send(
            "POST", "/auth/email/verify", json: ["email": owner.email, "code": wrong, "sign_in": true, "signup_token": ownerToken])
        let plainGuess = try await server.client.send("POST", "/auth/email/verify", json: ["email": owner.email, "code": wrong])
        #expect(guessed.status == 400 && guessed.problem?.code == .codeInvalid, "\(guessed.text)")
        #expect(guessed.text == plainGuess.text)

        // The other address's token with that address's right code: refused, nothing made there.
        let crossed = try await server.client.send(
            "POST", "/auth/email/verify", json: ["email": other.email, "code": otherCode, "sign_in": true, "signup_token": ownerToken])
        #expect(crossed.status == 409 && crossed.problem?.code == .signUpSuperseded, "\(crossed.text)")
        let otherLogin = try await server.client.send("POST", "/auth/login", json: ["email": other.email, "password": other.password])
        #expect(otherLogin.status == 401, "the crossed sign-up made no account: \(otherLogin.text)")
        #expect(otherToken != ownerToken)

        // The owner's code with the owner's token, after all that: signed in.
        let verified = try await server.client.send(
            "POST", "/auth/email/verify", json: ["email": owner.email, "code": code, "sign_in": true, "signup_token": ownerToken])
        #expect(verified.status == 200, "\(verified.text)")
        #expect(try verified.decode(EmailVerified.self).session?.user.username == owner.username)
        await server.stop()
    }

    /// The contract's plain request: sign up, then the code with `sign_in: true` and no token.
    @Test func aSignUpAloneSignsInWithoutTheToken() async throws {
        let server = try await ServerProcess.start()
        let account = TestAccount("notoken")
        try await server.signUp(account)
        let code = try await server.mail.code(to: account.email)
        let reply = try await server.client.send("POST", "/auth/email/verify", json: ["email": account.email, "code": code, "sign_in": true])
        #expect(reply.status == 200, "\(reply.text)")
        let pair = try #require(try reply.decode(EmailVerified.self).session, "\(reply.text)")
        #expect(pair.user.username == account.username)
        #expect(try await server.me(pair.access).status == 200)
        await server.stop()
    }

    /// A stranger's sign-up over the owner's, from another User-Agent or another address: the
    /// owner's code without a token (with or without `sign_in`), and with the owner's own token
    /// (which no longer names the pending sign-up), makes nothing and opens nothing; the owner's
    /// own retry is not contested.
    @Test(arguments: ["agent", "address"])
    func aStrangersSignUpOverTheOwnersIsContested(_ part: String) async throws {
        let server = try await ServerProcess.start(in: nil, ["--mail-interval", "0", "--trusted-proxy", "127.0.0.1"])
        let ownerClient = (agent: "Owner/1.0", address: "203.0.113.1")
        let strangerClient = part == "agent" ? (agent: "Stranger/6.6", address: ownerClient.address) : (agent: ownerClient.agent, address: "203.0.113.66")
        /// An owner's sign-up and a stranger's over it (each round its own address: an address
        /// gets 5 codes an hour); the owner, the stranger, the owner's token and the newest code
        /// (the stranger's sign-up's).
        func replaced() async throws -> (owner: TestAccount, stranger: TestAccount, ownerToken: String, code: String) {
            let owner = TestAccount("contest\(part)")
            let stranger = TestAccount(username: "stranger_\(owner.username.suffix(8))", email: owner.email, password: "Pw-stranger horse battery")
            let ownerToken = try await server.signUp(owner, userAgent: ownerClient.agent, address: ownerClient.address)
            _ = try await server.mail.code(to: owner.email)
            _ = try await server.signUp(stranger, userAgent: strangerClient.agent, address: strangerClient.address)
            let code = try await server.mail.code(to: owner.email, skipping: 1)
            return (owner, stranger, ownerToken, code)
        }
        /// No account on the address, with either password.
        func expectNothingMade(_ owner: TestAccount, _ stranger: TestAccount) async throws {
            for password in [owner.password, stranger.password] {
                let login = try await server.client.send("POST", "/auth/login", json: ["email": owner.email, "password": password])
                #expect(login.status == 401, "no account: \(login.text)")
            }
        }
        for body in [["sign_in": true], [:], ["sign_in": false]] as [[String: Bool]] {
            let round = try await replaced()
            var request: [String: Any] = ["email": round.owner.email, "code": round.code]
            request.merge(body) { $1 }
            let refused = try await server.client.send("POST", "/auth/email/verify", json: request, headers: ["User-Agent": ownerClient.agent])
            #expect(refused.status == 409 && refused.problem?.code == .signUpSuperseded, "\(body): \(refused.text)")
            #expect(refused.object?["session"] == nil && refused.object?["email_verification_token"] == nil)
            try await expectNothingMade(round.owner, round.stranger)
        }
        // With the owner's own token: it names the replaced sign-up, so 409 as well.
        let round = try await replaced()
        let withToken = try await server.client.send(
            "POST", "/auth/email/verify", json: ["email": round.owner.email, "code": round.code, "sign_in": true, "signup_token": round.ownerToken])
        #expect(withToken.status == 409 && withToken.problem?.code == .signUpSuperseded, "\(withToken.text)")
        try await expectNothingMade(round.owner, round.stranger)

        // The owner's own retry (same client) is not contested: the plain request signs in.
        let owner = TestAccount("retry\(part)")
        _ = try await server.signUp(owner, userAgent: ownerClient.agent, address: ownerClient.address)
        _ = try await server.mail.code(to: owner.email)
        _ = try await server.signUp(owner, userAgent: ownerClient.agent, address: ownerClient.address)
        let fresh = try await server.mail.code(to: owner.email, skipping: 1)
        let verified = try await server.client.send("POST", "/auth/email/verify", json: ["email": owner.email, "code": fresh, "sign_in": true])
        #expect(verified.status == 200, "\(verified.text)")
        #expect(try verified.decode(EmailVerified.self).session?.user.username == owner.username)
        await server.stop()
        #expect(logEvents(server.logs, "signup_superseded").count == 4)
    }
}
