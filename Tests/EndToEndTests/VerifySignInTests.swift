import AccountAPI
import Foundation
import TestSupport
import Testing

/// Verifying a details-first sign-up's code with `sign_in: true` signs in, over HTTP against the
/// real binary: the session works, names the device, is logged and counted; off with a window of 0.
@Suite struct VerifySignInTests {
    @Test func theCodeOfAFreshSignUpSignsTheNewAccountIn() async throws {
        let server = try await ServerProcess.start()
        let account = TestAccount("verifyin")
        try await server.signUp(account)
        let code = try await server.mail.code(to: account.email)
        let body = try AccountJSON.makeEncoder().encode(EmailVerifyRequest(email: account.email, code: code, signIn: true))
        #expect(String(decoding: body, as: UTF8.self).contains(#""sign_in":true"#))
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
        #expect(!server.logs.contains(code) && !server.logs.contains(pair.refresh), "no secret in the log")
    }

    @Test func theOriginalRequestAndAWindowOfZeroOpenNoSession() async throws {
        let server = try await ServerProcess.start(in: nil, ["--verify-sign-in-window", "0"])
        let account = TestAccount("windowoff")
        try await server.signUp(account)
        let code = try await server.mail.code(to: account.email)
        let reply = try await server.client.send("POST", "/auth/email/verify", json: ["email": account.email, "code": code, "sign_in": true])
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
}
