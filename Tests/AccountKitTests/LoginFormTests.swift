import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing

@testable import AccountKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The login form's decisions: when it can be sent, and how each refusal shows.
@MainActor @Suite struct LoginFormTests {
    static func offlineSession(_ language: Language = .en) -> SessionManager {
        SessionManager(
            client: AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: language),
            store: InMemoryCredentialStore())
    }

    @Test func canSubmitNeedsBothFields() {
        let form = LoginForm(session: Self.offlineSession())
        #expect(!form.canSubmit)
        form.identifier = "  "
        form.password = "secret"
        #expect(!form.canSubmit, "blank is not an identifier")
        form.identifier = "민수"
        #expect(form.canSubmit)
        form.password = ""
        #expect(!form.canSubmit)
    }

    @Test func verificationEmailIsTheIdentifierWhenItIsAnAddress() {
        let form = LoginForm(session: Self.offlineSession())
        form.identifier = "민수"
        #expect(form.verificationEmail == nil)
        form.identifier = " minsu@example.com "
        #expect(form.verificationEmail == "minsu@example.com")
    }

    @Test func wrongCredentialsShowOnTheForm() {
        let form = LoginForm(session: Self.offlineSession())
        form.apply(.invalidCredentials)
        #expect(form.message == "The nickname, email address or password is incorrect.")
        #expect(!form.needsEmailVerification)
        form.password = "another try"
        #expect(form.message == nil, "editing clears the refusal")
        #expect(form.phase == .idle)
    }

    @Test func unverifiedAddressAsksForVerification() {
        let form = LoginForm(session: Self.offlineSession())
        form.apply(.emailNotVerified)
        #expect(form.needsEmailVerification)
        #expect(form.message == "Verify your email address with the code we sent before logging in.")
    }

    @Test func rateLimitNamesTheSeconds() {
        let form = LoginForm(session: Self.offlineSession(.ko))
        form.apply(.rateLimited(retryAfter: 120))
        #expect(form.message == "요청이 너무 많아요. 120초 후에 다시 시도해 주세요.")
    }

    @Test func lostConnectionSaysSo() async {
        let form = LoginForm(session: Self.offlineSession())
        form.identifier = "민수"
        form.password = "correct horse battery"
        // Port 9 refuses the connection: a real transport failure, not a constructed one.
        await form.submit()
        #expect(form.message == "Cannot reach the server. Check your connection.")
        guard case .failed(.transport) = form.phase else {
            Issue.record("expected a transport failure, got \(form.phase)")
            return
        }
    }
}

/// `LoginForm` against the real server.
@MainActor @Suite(.serialized) struct LoginFormServerTests {
    @Test func wrongPasswordThenUnverifiedThenSignedIn() async throws {
        try await withModelServer { server, client in
            _ = try await client.signUp(SignUpRequest(username: "민수", email: "minsu@example.com", password: "correct horse battery", mbti: .enfp))
            let session = SessionManager(client: client, store: InMemoryCredentialStore())
            try await session.restore()
            let form = LoginForm(session: session)

            form.identifier = "민수"
            form.password = "wrong horse battery"
            await form.submit()
            #expect(form.phase == .failed(.invalidCredentials))
            #expect(form.message == "The nickname, email address or password is incorrect.")
            #expect(!form.needsEmailVerification)

            form.password = "correct horse battery"
            await form.submit()
            #expect(form.needsEmailVerification, "the right password of an unverified account")
            #expect(await session.state == .signedOut)

            let code = try await server.mail.code(to: "minsu@example.com")
            _ = try await client.verifyEmail(EmailVerifyRequest(email: "minsu@example.com", code: code))
            form.identifier = "minsu@example.com"
            await form.submit()
            guard case .signedIn(let user) = form.phase else {
                Issue.record("not signed in: \(form.phase)")
                return
            }
            #expect(user.username == "민수")
            #expect(!form.needsEmailVerification)
            #expect(await session.state == .signedIn(user))
        }
    }
}

/// The login screen shown again after the code screen.
@MainActor @Suite struct LoginFormReturnTests {
    @Test func theStaleVerifyYourEmailMessageGoesWhenTheScreenComesBack() {
        let form = LoginForm(session: LoginFormTests.offlineSession())
        form.identifier = "minsu@example.com"
        form.apply(.emailNotVerified)
        #expect(form.message != nil && form.needsEmailVerification)
        form.reappeared()
        #expect(form.message == nil)
        #expect(!form.needsEmailVerification)
        #expect(form.identifier == "minsu@example.com", "what was typed stays")
    }

    @Test func otherRefusalsStay() {
        let form = LoginForm(session: LoginFormTests.offlineSession())
        form.apply(.invalidCredentials)
        form.reappeared()
        #expect(form.message == "The nickname, email address or password is incorrect.")
    }
}
