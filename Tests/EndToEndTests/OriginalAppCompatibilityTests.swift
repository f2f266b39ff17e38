import AccountAPI
import Foundation
import TestSupport
import Testing

/// The original app's client code, unchanged: the JSON a Django-era client posts and the
/// top-level `access` and `refresh` it reads, against the real binary.
@Suite struct OriginalAppCompatibilityTests {
    /// The exact sign-up body the old client sends.
    static func djangoSignUp(_ account: TestAccount) -> [String: Any] {
        [
            "username": account.username, "email": account.email, "password": account.password,
            "password_confirmation": account.password, "mbti": "enfp",
        ]
    }

    /// Reads the tokens as the old client does: plain JSON, top-level strings.
    static func tokens(_ reply: Reply) -> (access: String?, refresh: String?) {
        (reply.object?["access"] as? String, reply.object?["refresh"] as? String)
    }

    @Test func oldClientSignsUpAndLogsInWithUnverifiedLoginAllowed() async throws {
        let server = try await ServerProcess.start(["--allow-unverified-login"])
        let account = TestAccount("django")
        let signUp = try await server.client.send("POST", "/auth/signup", json: Self.djangoSignUp(account))
        #expect(signUp.status == 202, "\(signUp.text)")
        #expect(signUp.object?["email"] as? String == account.email)

        let byEmail = try await server.client.send("POST", "/auth/login", json: ["email": account.email, "password": account.password])
        #expect(byEmail.status == 200, "\(byEmail.text)")
        let (access, refresh) = Self.tokens(byEmail)
        #expect(access?.split(separator: ".").count == 3)
        #expect((refresh ?? "").count >= 43)

        // Django routes ended in a slash; the old client may still send one.
        let byUsername = try await server.client.send("POST", "/auth/login/", json: ["username": account.username, "password": account.password])
        #expect(byUsername.status == 200, "\(byUsername.text)")
        #expect(Self.tokens(byUsername).access != nil && Self.tokens(byUsername).refresh != nil)
        #expect(Self.tokens(byUsername).refresh != refresh)

        let me = try await server.me(try #require(access))
        #expect(me.status == 200)
        #expect(try me.decode(User.self).emailVerified == false)
        await server.stop()
    }

    @Test func oldClientIsAskedToVerifyFirstByDefault() async throws {
        let server = try await ServerProcess.start()
        let account = TestAccount("django")
        let signUp = try await server.client.send("POST", "/auth/signup/", json: Self.djangoSignUp(account))
        #expect(signUp.status == 202, "\(signUp.text)")

        let early = try await server.client.send("POST", "/auth/login", json: ["email": account.email, "password": account.password])
        #expect(early.status == 403)
        #expect(early.problem?.code == .emailNotVerified)
        #expect(Self.tokens(early).access == nil)

        try await server.verify(account.email)
        let byEmail = try await server.client.send("POST", "/auth/login", json: ["email": account.email, "password": account.password])
        #expect(byEmail.status == 200, "\(byEmail.text)")
        #expect(Self.tokens(byEmail).access != nil && Self.tokens(byEmail).refresh != nil)
        let byUsername = try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": account.password])
        #expect(byUsername.status == 200, "\(byUsername.text)")
        #expect(Self.tokens(byUsername).access != nil && Self.tokens(byUsername).refresh != nil)
        await server.stop()
    }
}
