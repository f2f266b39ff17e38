import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing

@testable import AccountKit

/// Runs `body` against a fresh app in this process (the binary's `options`, on `clock`), with
/// a client of it in English.
@MainActor func withModelServer(
    _ options: [String] = [], clock: TestClock = TestClock.atNow(), _ body: @MainActor (InProcessServer, AccountClient) async throws -> Void
) async throws {
    let server = try await inProcessServer(options, clock: clock)
    try await body(server, server.client())
}

/// Fills every field of `form` but the address, with a password that passes the rules.
@MainActor func fillDetails(_ form: SignUpForm, username: String = "지우", mbti: MBTI = .infp) {
    form.username = username
    form.password = "correct horse battery"
    form.passwordConfirmation = "correct horse battery"
    form.mbti = mbti
}

/// Sign-up and email verification models against the account app.
@MainActor @Suite(.serialized) struct SignUpServerFlowTests {
    func fill(_ form: SignUpForm, username: String, email: String) {
        form.email = email
        fillDetails(form, username: username, mbti: .enfp)
    }

    @Test func detailsFirstSignUpSendsACodeThatVerifiesAndSignsIn() async throws {
        try await withModelServer { server, client in
            let session = SessionManager.inMemory(client)
            var events = await session.events().makeAsyncIterator()
            let form = SignUpForm(session: session)
            await form.loadPolicy()
            #expect(form.mbtiChoices == MBTI.allCases)
            fill(form, username: "민수", email: "minsu@example.com")
            #expect(form.canSubmit)
            await form.submit()
            #expect(form.phase == .codeSent(email: "minsu@example.com", expiresIn: 600))
            #expect(!form.canSubmit, "one account per form")

            let flow = EmailVerificationFlow(session: session, purpose: .verify)
            flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
            let code = try await server.mail.code(to: "minsu@example.com")
            flow.code = code == "000000" ? "111111" : "000000"
            await flow.verify()
            #expect(flow.errors(for: .code).first == "Check the verification code in the email and try again.")
            #expect(flow.token == nil)

            flow.code = code
            await flow.verify()
            #expect(flow.errors(for: .code).first == nil)
            // The code made the account and signed it in: the app never needed the password again.
            guard case .signedIn(let user) = flow.phase else {
                Issue.record("not signed in: \(flow.phase)")
                return
            }
            #expect(user.username == "민수" && user.emailVerified)
            #expect(await session.state == .signedIn(user))
            #expect(await events.next() == .signedIn(user))
            #expect(try await session.me().id == user.id)

            let pair = try await client.logIn(.identifier("minsu@example.com", password: "correct horse battery"))
            #expect(pair.user.emailVerified, "the verified address lets the account log in")
        }
    }

    @Test func aTakenUsernameShowsTheServersErrorOnTheUsernameField() async throws {
        try await withModelServer { _, client in
            let first = SignUpForm(session: .inMemory(client))
            fill(first, username: "민수", email: "minsu@example.com")
            await first.submit()
            #expect(first.phase == .codeSent(email: "minsu@example.com", expiresIn: 600))

            let second = SignUpForm(session: .inMemory(client))
            fill(second, username: "민수", email: "other@example.com")
            await second.submit()
            #expect(second.phase == .failed(.conflict(.usernameTaken)))
            #expect(second.errors(for: .username) == ["This nickname is already taken."])
            #expect(second.errors(for: .email).isEmpty)
            #expect(!second.canSubmit)

            second.username = "민수2"
            #expect(second.canSubmit)
            await second.submit()
            #expect(second.phase == .codeSent(email: "other@example.com", expiresIn: 600))
        }
    }

    @Test func emailFirstTokenSignsUpVerifiedAndSignedIn() async throws {
        try await withModelServer { server, client in
            let flow = EmailVerificationFlow(session: .inMemory(client))
            await flow.loadPolicy()
            #expect(flow.rules == FormRules(policy: try await client.policy()))
            flow.email = "jiwoo@example.com"
            await flow.sendCode()
            guard case .codeSent = flow.phase else {
                Issue.record("no code sent: \(String(describing: flow.message))")
                return
            }
            flow.code = try await server.mail.code(to: "jiwoo@example.com")
            await flow.verify()
            let token = try #require(flow.token)

            let session = SessionManager(client: client, store: InMemoryCredentialStore())
            let form = SignUpForm(session: session)
            fill(form, username: "지우", email: "jiwoo@example.com")
            form.emailVerificationToken = token
            await form.submit()
            guard case .signedIn(let user) = form.phase else {
                Issue.record("not signed in: \(form.phase)")
                return
            }
            #expect(user.username == "지우")
            #expect(user.emailVerified)
            #expect(user.mbti == .enfp)
            #expect(await session.state == .signedIn(user), "the 201's pair started the session")
            #expect(try await session.me().id == user.id)
        }
    }

    @Test func aSecondRequestWithinTheCooldownCountsDownFromRetryAfter() async throws {
        try await withModelServer { _, client in
            let clock = TestClock.atNow()
            let first = EmailVerificationFlow(session: .inMemory(client), now: clock.function)
            first.email = "minsu@example.com"
            await first.sendCode()
            #expect(first.resendCountdown(at: clock.now) == 60)

            // A second screen (or a restarted app) does not know the first one's countdown; the server does.
            let second = EmailVerificationFlow(session: .inMemory(client), now: clock.function)
            second.email = "minsu@example.com"
            #expect(second.canResend)
            await second.sendCode()
            #expect(second.phase == .enterEmail)
            let countdown = second.resendCountdown(at: clock.now)
            #expect((1...60).contains(countdown))
            #expect(second.message == "Too many requests. Try again in \(countdown) seconds.")
            #expect(!second.canResend)
            clock.advance(TimeInterval(countdown))
            #expect(second.canResend)
        }
    }

    @Test func aServerRefusedAddressShowsOnTheEmailField() async throws {
        try await withModelServer { _, client in
            let flow = EmailVerificationFlow(session: .inMemory(client))
            // Passes the client's shape check; the server counts the 255 characters too.
            flow.email = String(repeating: "a", count: 243) + "@example.com"
            var lenient = FormRules()
            lenient.emailMaxLength = 1000
            flow.use(lenient)
            await flow.sendCode()
            #expect(flow.errors(for: .email).first == "Use at most 254 characters.")
            #expect(flow.phase == .enterEmail)
            #expect(flow.message == nil)
        }
    }
}
