import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// The app's sign-up, email first, through the models and the navigation decisions, against the
/// real server: address → code → details with the address fixed → signed in.
@MainActor @Suite(.serialized) struct EmailFirstSignUpTests {
    @Test func fromTheEntryToSignedInWithTheCodeSentByItselfAtSixDigits() async throws {
        try await withModelServer { server, client in
            #expect(AccountNavigation.signUpEntry == .push(.signUp), "create an account starts with the address")
            let flow = EmailVerificationFlow(session: .inMemory(client), purpose: .signup)
            await flow.loadPolicy()
            #expect(flow.primaryAction == .sendCode)
            flow.email = "jiwoo@example.com"
            await flow.performPrimaryAction()
            guard case .codeSent = flow.phase else {
                Issue.record("no code: \(String(describing: flow.message))")
                return
            }
            #expect(flow.primaryAction == .verify)

            let code = try await server.mail.code(to: "jiwoo@example.com")
            flow.code = String(code.prefix(5))
            await flow.verifyIfComplete()
            #expect(flow.phase != .verified(token: ""), "five digits are not sent")
            #expect(flow.errors(for: .code).first == nil && !flow.isCodeComplete)
            flow.code = code
            #expect(flow.isCodeComplete)
            await flow.verifyIfComplete()
            let token = try #require(flow.token, "the sixth digit sends the code: \(String(describing: flow.errors(for: .code).first))")

            let step = AccountNavigation.afterVerification(flow.phase, purpose: .signup, email: flow.email)
            #expect(step == .push(.verifiedSignUp(email: "jiwoo@example.com", token: token)))

            let session = SessionManager(client: client, store: InMemoryCredentialStore())
            try await session.restore()
            let form = SignUpForm(session: session)
            form.useVerifiedEmail("jiwoo@example.com", token: token)
            #expect(form.verifiedEmail == "jiwoo@example.com")
            #expect(!form.hasInput, "the proven address was not typed on this screen")
            #expect(form.field(after: .username) == .password, "the return key skips the fixed address")
            fillDetails(form)
            #expect(form.canSubmit)
            await form.submit()
            guard case .signedIn(let user) = form.phase else {
                Issue.record("not signed in: \(form.phase)")
                return
            }
            #expect(user.email == "jiwoo@example.com" && user.emailVerified && user.username == "지우" && user.mbti == .infp)
            #expect(AccountNavigation.afterSignUp(form.phase) == .popToRoot)
            #expect(await session.state == .signedIn(user))
            #expect(AccountNavigation.root(for: await session.state) == .profile(user))
        }
    }

    /// Asks `flow` to mail a code to `email`; returns the code.
    func codeSent(to email: String, _ flow: EmailVerificationFlow, _ server: InProcessServer) async throws -> String {
        flow.email = email
        await flow.sendCode()
        return try await server.mail.code(to: email)
    }

    @Test func tooManyWrongCodesTurnVerifyOffUntilANewCodeArrives() async throws {
        let clock = TestClock.atNow()
        try await withModelServer(clock: clock) { server, client in
            let flow = EmailVerificationFlow(session: .inMemory(client), purpose: .signup, now: clock.function)
            let code = try await codeSent(to: "minji@example.com", flow, server)
            let wrong = code == "000000" ? "111111" : "000000"
            var tries = 0
            while !flow.needsNewCode && tries < 10 {
                flow.code = wrong
                await flow.verify()
                tries += 1
            }
            #expect(flow.needsNewCode, "after \(tries) wrong tries")
            #expect(flow.errors(for: .code).first == Messages.detail(.tooManyAttempts, .en))
            flow.code = code
            #expect(!flow.canVerify, "even the right code is not sent: the server spent it")
            #expect(flow.errors(for: .code).first == Messages.detail(.tooManyAttempts, .en), "editing keeps the reason verify is off")
            await flow.verifyIfComplete()
            #expect(flow.token == nil)
            #expect(flow.primaryAction == .sendNewCode)
            #expect(!flow.canPerformPrimaryAction(at: clock.now), "the resend countdown still runs")

            clock.advance(61)
            #expect(flow.canPerformPrimaryAction(at: clock.now))
            await flow.performPrimaryAction()
            #expect(!flow.needsNewCode)
            #expect(flow.primaryAction == .verify)
            #expect(flow.code.isEmpty && flow.errors(for: .code).first == nil)
            #expect(try await server.mail.arrived(2, to: "minji@example.com").count == 2)
            let fresh = try await server.mail.code(to: "minji@example.com")
            flow.code = fresh
            await flow.verifyIfComplete()
            #expect(flow.token != nil)
        }
    }

    @Test func anotherAddressGetsACodeAtOnceWhileTheFirstKeepsItsCountdown() async throws {
        try await withModelServer { server, client in
            let clock = TestClock.atNow()
            let flow = EmailVerificationFlow(session: .inMemory(client), purpose: .signup, now: clock.function)
            flow.email = "typo@exmaple.com"
            await flow.sendCode()
            #expect(flow.resendCountdown(at: clock.now) == 60)
            flow.changeEmail()
            #expect(flow.phase == .enterEmail)
            #expect(flow.email == "typo@exmaple.com", "the address stays, to be corrected")
            #expect(!flow.canResend, "the same address still counts down")
            flow.email = "right@example.com"
            #expect(flow.canResend, "the server's limit is per address")
            await flow.sendCode()
            guard case .codeSent = flow.phase else {
                Issue.record("no code: \(String(describing: flow.message))")
                return
            }
            _ = try await server.mail.code(to: "right@example.com")
            flow.changeEmail()
            flow.email = " TYPO@exmaple.com "
            #expect(flow.resendCountdown(at: clock.now) > 0, "the first address's countdown is remembered, case and spaces ignored")
        }
    }

    @Test func aTakenNicknameIsChangedAndSentAgainWithTheSameProof() async throws {
        try await withModelServer { server, client in
            _ = try await client.signUp(SignUpRequest(username: "민수", email: "minsu@example.com", password: "correct horse battery", mbti: .enfp))
            let flow = EmailVerificationFlow(session: .inMemory(client), purpose: .signup)
            flow.email = "other@example.com"
            await flow.sendCode()
            flow.code = try await server.mail.code(to: "other@example.com")
            await flow.verify()
            let form = SignUpForm(session: SessionManager(client: client, store: InMemoryCredentialStore()))
            form.useVerifiedEmail("other@example.com", token: try #require(flow.token))
            fillDetails(form, username: "민수")
            await form.submit()
            #expect(form.phase == .failed(.conflict(.usernameTaken)))
            #expect(form.errors(for: .username) == ["This nickname is already taken."])
            #expect(!form.needsNewVerification)
            form.username = "민수2"
            await form.submit()
            guard case .signedIn(let user) = form.phase else {
                Issue.record("not signed in: \(form.phase)")
                return
            }
            #expect(user.username == "민수2" && user.email == "other@example.com")
        }
    }

    @Test func aProofThatRanOutLeadsBackToTheAddress() async throws {
        let clock = TestClock.atNow()
        try await withModelServer(clock: clock) { server, client in
            let flow = EmailVerificationFlow(session: .inMemory(client), purpose: .signup, now: clock.function)
            flow.code = try await codeSent(to: "late@example.com", flow, server)
            await flow.verify()
            let form = SignUpForm(session: .inMemory(client))
            form.useVerifiedEmail("late@example.com", token: try #require(flow.token))
            fillDetails(form)
            clock.advance(1801)
            await form.submit()
            #expect(form.needsNewVerification, "\(form.phase)")
            #expect(form.message == "Your email verification has expired. Please verify your address again.")
            #expect(AccountNavigation.afterVerificationExpired == .pop)
            flow.reappeared()
            #expect(flow.phase == .enterEmail)
            #expect(flow.email == "late@example.com")
            #expect(flow.canResend)
            await flow.sendCode()
            guard case .codeSent = flow.phase else {
                Issue.record("no code: \(String(describing: flow.message))")
                return
            }
        }
    }

    @Test func theVerifyFlowResendsAfterTheCountdownAndSignsInWithTheNewCode() async throws {
        let clock = TestClock.atNow()
        try await withModelServer(clock: clock) { server, client in
            let session = SessionManager.inMemory(client)
            let form = SignUpForm(session: session)
            form.username = "하늘"
            form.email = "sky@example.com"
            fillDetails(form, username: "하늘")
            #expect(form.field(after: .username) == .email, "details first: the address is typed")
            await form.submit()
            #expect(form.phase == .codeSent(email: "sky@example.com", expiresIn: 600))
            let first = try await server.mail.code(to: "sky@example.com")

            let flow = EmailVerificationFlow(session: session, purpose: .verify, now: clock.function)
            flow.codeWasSent(to: "sky@example.com", expiresIn: 600)
            #expect(!flow.canResend)
            clock.advance(61)
            #expect(flow.canResend)
            await flow.sendCode()
            #expect(flow.message == nil)
            #expect(try await server.mail.arrived(2, to: "sky@example.com").count == 2)
            let second = try await server.mail.code(to: "sky@example.com")
            if first != second {
                flow.code = first
                await flow.verify()
                #expect(flow.errors(for: .code) == ["Check the verification code in the email and try again."], "a new code replaces the old one")
            }
            flow.code = second
            await flow.verify()
            // A minute after the sign-up, well within its window: the code made the account and signed it in.
            guard case .signedIn(let user) = flow.phase else {
                Issue.record("not signed in: \(flow.phase)")
                return
            }
            #expect(user.username == "하늘" && user.emailVerified)
            #expect(await session.state == .signedIn(user))
            #expect(AccountNavigation.afterVerification(flow.phase, purpose: .verify, email: flow.email) == .popToRoot)
        }
    }
}
