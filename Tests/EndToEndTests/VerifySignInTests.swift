import AccountAPI
import Foundation
import TestSupport
import Testing

/// Signing in at verification where the binary's log tells: the login is logged with no secret,
/// and a sign-up a newer one of the address replaced never signs in (with the replaced sign-up's
/// token, or without a token when the newer one came from another client: contested), each a
/// security event. The rest of signing in at verification is in
/// `Tests/Scenarios/VerifySignInScenarios.swift`, run both ways.
@Suite struct VerifySignInTests {
    @Test func signingInAtVerificationIsLoggedAsALoginWithNoSecret() async throws {
        let server = try await ServerProcess.start()
        let account = TestAccount("verifyin")
        let token = try #require(try await server.signUp(account).signUpToken)
        let code = try await server.mail.code(to: account.email)
        let reply = try await server.send(
            "POST", "/auth/email/verify", model: EmailVerifyRequest(email: account.email, code: code, signIn: true, signUpToken: token),
            headers: ["User-Agent": "QuickStart/1.0 (e2e)"])
        let pair = try #require(try reply.decode(EmailVerified.self).session, "\(reply.text)")
        await server.stop()
        let lines = server.logs.split(separator: "\n").filter { $0.contains(#""event":"login_succeeded""#) }
        #expect(lines.count == 1 && lines.first?.contains(#""via":"email_verify""#) == true, "\(lines)")
        #expect(!server.logs.contains(code) && !server.logs.contains(pair.refresh) && !server.logs.contains(token), "no secret in the log")
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
            let ownerToken = try #require(try await server.signUp(owner, headers: ["User-Agent": ownerClient.agent, "X-Forwarded-For": ownerClient.address]).signUpToken)
            _ = try await server.mail.code(to: owner.email)
            _ = try await server.signUp(stranger, headers: ["User-Agent": strangerClient.agent, "X-Forwarded-For": strangerClient.address])
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
        _ = try #require(try await server.signUp(owner, headers: ["User-Agent": ownerClient.agent, "X-Forwarded-For": ownerClient.address]).signUpToken)
        _ = try await server.mail.code(to: owner.email)
        _ = try #require(try await server.signUp(owner, headers: ["User-Agent": ownerClient.agent, "X-Forwarded-For": ownerClient.address]).signUpToken)
        let fresh = try await server.mail.code(to: owner.email, skipping: 1)
        let verified = try await server.client.send("POST", "/auth/email/verify", json: ["email": owner.email, "code": fresh, "sign_in": true])
        #expect(verified.status == 200, "\(verified.text)")
        #expect(try verified.decode(EmailVerified.self).session?.user.username == owner.username)
        await server.stop()
        #expect(logEvents(server.logs, "signup_superseded").count == 4)
    }
}
