import InProcess
import TestSupport
import AccountAPI
import Foundation
import Testing

@testable import AccountKit

/// The SDK's side of the sign-up token, against the real server: the session keeps the token of
/// its details-first sign-up (across a relaunch) and signs in with it; when someone else's newer
/// sign-up of the address replaced it, the code screen says so and the form takes the user back,
/// details kept and password typed again.
@MainActor @Suite(.serialized) struct SignUpSupersededTests {
    static let address = "dahye@example.com"
    /// The code cooldown and mail budget off, so a second sign-up of the address goes out at once.
    static let noWait = ["--mail-interval", "0"]

    /// The code of the `number`th message to `address` (1 is the first), once it is delivered.
    static func code(_ number: Int, on server: InProcessServer) async throws -> String {
        let messages = try await server.mail.arrived(number, to: address)
        return try #require(MailFolder.code(in: messages[number - 1]))
    }

    /// A stranger's sign-up of `address`, with a password and nickname of their own, sent as any client could.
    static func strangerSignsUp(_ client: AccountClient) async throws {
        let outcome = try await client.signUp(SignUpRequest(
            username: "낯선손님", email: address, password: "stranger horse battery",
            passwordConfirmation: "stranger horse battery", mbti: .estp))
        guard case .codeSent = outcome else { throw AccountError.undecodableReply(status: 201) }
    }

    @Test func aNewerSignUpByAStrangerSendsTheUserBackToTheFormWithTheDetailsKept() async throws {
        try await withModelServer(Self.noWait) { server, client in
            let session = SessionManager.inMemory(client)
            let form = SignUpForm(session: session)
            form.email = Self.address
            fillDetails(form, username: "다혜", mbti: .isfp)
            await form.submit()
            #expect(form.phase == .codeSent(email: Self.address, expiresIn: 600))
            _ = try await Self.code(1, on: server)

            try await Self.strangerSignsUp(client)
            // The mailbox's newest code is the stranger's sign-up's; the owner types it.
            let code = try await Self.code(2, on: server)
            #expect(await server.mail.delivered(to: Self.address)[1].contains("낯선손님"))
            let flow = EmailVerificationFlow(session: session, purpose: .verify)
            flow.codeWasSent(to: Self.address, expiresIn: 600)
            flow.code = code
            await flow.verify()
            #expect(flow.phase == .signUpSuperseded, "\(flow.phase)")
            #expect(flow.message == "This sign-up was replaced by a newer one for this address; sign up again.")
            let state = await session.state
            #expect(state.user == nil && session.currentUser == nil, "nobody signed in: \(state)")
            #expect(AccountNavigation.afterVerification(flow.phase, purpose: .verify, email: Self.address) == .pop)

            // Back at the form: the details stay, the password is typed again.
            form.signUpWasSuperseded()
            #expect(form.username == "다혜" && form.email == Self.address && form.mbti == .isfp)
            #expect(form.password.isEmpty && form.passwordConfirmation.isEmpty)
            #expect(form.message == "This sign-up was replaced by a newer one for this address; sign up again.")
            #expect(form.errors(for: .password).isEmpty, "no error shouts before the user types")
            #expect(!form.canSubmit)
            form.password = "correct horse battery"
            form.passwordConfirmation = "correct horse battery"
            #expect(form.canSubmit && form.message == nil)
            await form.submit()
            #expect(form.phase == .codeSent(email: Self.address, expiresIn: 600))

            let again = EmailVerificationFlow(session: session, purpose: .verify)
            again.codeWasSent(to: Self.address, expiresIn: 600)
            again.code = try await Self.code(3, on: server)
            #expect(again.code != code)
            await again.verify()
            guard case .signedIn(let user) = again.phase else {
                Issue.record("not signed in: \(again.phase) \(String(describing: again.message))")
                return
            }
            #expect(user.username == "다혜" && user.mbti == .isfp)
            #expect(try await session.me().id == user.id)
            // The stranger's password never became the account's.
            await #expect(throws: AccountError.invalidCredentials) {
                try await client.logIn(.identifier(Self.address, password: "stranger horse battery"))
            }
        }
    }

    @Test func theTokenIsKeptInTheStoreSoARelaunchedAppStillSignsIn() async throws {
        try await withModelServer { server, client in
            let store = InMemoryCredentialStore()
            let first = SessionManager(client: client, store: store)
            guard case .codeSent(let accepted) = try await first.signUp(SignUpRequest(
                username: "다혜", email: Self.address, password: "correct horse battery", mbti: .isfp))
            else { throw AccountError.undecodableReply(status: 201) }
            let token = try #require(accepted.signUpToken)
            let kept = try #require(try store.retrieve(key: first.pendingSignUpKey))
            #expect(first.pendingSignUpKey == first.credentialKey + ".signup")
            #expect(String(decoding: kept, as: UTF8.self).contains(token))

            // The app is relaunched before the code is typed: a new manager over the same store.
            let relaunched = SessionManager(client: client, store: store)
            let code = try await server.mail.code(to: Self.address)
            let verified = try await relaunched.verifyEmail("DaHye@Example.com", code: code)
            let pair = try #require(verified.session, "signed in with the kept token")
            #expect(await relaunched.state == .signedIn(pair.user))
            #expect(try store.retrieve(key: first.pendingSignUpKey) == nil, "the token is forgotten once used")
        }
    }

    @Test func withoutAKeptTokenTheCodeOnlyVerifies() async throws {
        try await withModelServer { server, client in
            // Signed up on another device (or with the client directly): this manager has no token.
            _ = try await client.signUp(SignUpRequest(username: "다혜", email: Self.address, password: "correct horse battery", mbti: .isfp))
            let session = SessionManager.inMemory(client)
            let code = try await server.mail.code(to: Self.address)
            let verified = try await session.verifyEmail(Self.address, code: code)
            #expect(verified.session == nil && verified.verified)
            #expect(session.currentUser == nil)
            // The account exists; the password logs in.
            _ = try await session.logIn(.identifier(Self.address, password: "correct horse battery"))
        }
    }

    @Test func aTokenFromTheClientsOwnSignUpCanBeGiven() async throws {
        try await withModelServer { server, client in
            guard case .codeSent(let accepted) = try await client.signUp(SignUpRequest(
                username: "다혜", email: Self.address, password: "correct horse battery", mbti: .isfp))
            else { throw AccountError.undecodableReply(status: 201) }
            let session = SessionManager.inMemory(client)
            let code = try await server.mail.code(to: Self.address)
            let verified = try await session.verifyEmail(Self.address, code: code, signUpToken: accepted.signUpToken)
            #expect(verified.session != nil && session.currentUser?.username == "다혜")
        }
    }

    @Test func theSessionManagerThrowsSupersededAndForgetsTheStaleToken() async throws {
        try await withModelServer(Self.noWait) { server, client in
            let store = InMemoryCredentialStore()
            let session = SessionManager(client: client, store: store)
            _ = try await session.signUp(SignUpRequest(username: "다혜", email: Self.address, password: "correct horse battery", mbti: .isfp))
            _ = try await Self.code(1, on: server)
            try await Self.strangerSignsUp(client)
            let code = try await Self.code(2, on: server)
            await #expect(throws: AccountError.conflict(.signUpSuperseded)) {
                try await session.verifyEmail(Self.address, code: code)
            }
            #expect(try store.retrieve(key: session.pendingSignUpKey) == nil)
            #expect(AccountError.conflict(.signUpSuperseded).localizedDescription(in: .ko)
                == "이 주소로 더 최근에 들어온 가입 신청이 이 신청을 대신했어요. 다시 가입해 주세요.")
        }
    }
}
