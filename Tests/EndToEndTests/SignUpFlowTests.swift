import AccountAPI
import Foundation
import TestSupport
import Testing

/// Both sign-up flows of docs/API.md over HTTP, codes read from the mail folder.
@Suite struct SignUpFlowTests {
    @Test func detailsFirstThenVerifyThenProfile() async throws {
        let server = try await ServerProcess.start()
        let account = TestAccount("details")
        let accepted = try await server.signUp(account)
        #expect(accepted.email == account.email && accepted.verification == "code_sent" && accepted.expiresIn == 600)
        #expect(accepted.signUpToken?.count == 43, "the sign-up's token, for signing in at verification")

        let verified = try await server.verify(account.email)
        #expect(verified.verified && verified.email == account.email && !verified.emailVerificationToken.isEmpty)

        let pair = try await server.logIn(account)
        #expect(pair.tokenType == "Bearer" && pair.expiresIn == 900)
        #expect(pair.user.username == account.username && pair.user.emailVerified)

        let me = try await server.me(pair.access)
        #expect(me.status == 200)
        let user = try me.decode(User.self)
        #expect(user == pair.user)

        let renamed = "renamed_\(UUID().uuidString.prefix(6).lowercased())"
        let patch = try await server.client.send("PATCH", "/auth/me", json: ["username": renamed, "mbti": "istj"], token: pair.access)
        #expect(patch.status == 200, "\(patch.text)")
        let updated = try patch.decode(User.self)
        #expect(updated.username == renamed && updated.mbti == .istj && updated.id == user.id)
        #expect(try await server.me(pair.access).decode(User.self) == updated)

        // The new nickname logs in; the old one no longer does.
        let byNewName = try await server.client.send("POST", "/auth/login", json: ["username": renamed, "password": account.password])
        #expect(byNewName.status == 200)
        let byOldName = try await server.client.send("POST", "/auth/login", json: ["username": account.username, "password": account.password])
        #expect(byOldName.status == 401 && byOldName.problem?.code == .invalidCredentials)
        await server.stop()
    }

    @Test func emailFirstThenSignUpWithTheToken() async throws {
        let server = try await ServerProcess.start()
        let account = TestAccount("emailfirst")
        let sent = try await server.client.send("POST", "/auth/email/code", model: EmailCodeRequest(email: account.email, purpose: .signup))
        #expect(sent.status == 202, "\(sent.text)")
        #expect(try sent.decode(EmailCodeSent.self) == EmailCodeSent(email: account.email, expiresIn: 600))

        let verified = try await server.verify(account.email)
        var request = account.signUpRequest
        request.emailVerificationToken = verified.emailVerificationToken
        let created = try await server.client.send("POST", "/auth/signup", model: request)
        #expect(created.status == 201, "\(created.text)")
        let pair = try created.decode(TokenPair.self)
        #expect(pair.user.emailVerified && pair.user.username == account.username && pair.user.mbti == account.mbti)
        #expect(try await server.me(pair.access).decode(User.self) == pair.user)

        // The token is single use.
        var again = TestAccount("emailfirst").signUpRequest
        again.email = account.email
        again.emailVerificationToken = verified.emailVerificationToken
        let reused = try await server.client.send("POST", "/auth/signup", model: again)
        #expect(reused.status == 400 && reused.problem?.code == .codeInvalid, "\(reused.text)")
        await server.stop()
    }
}
