import AccountAPI
import Foundation
import TestSupport
import Testing

@testable import AccountKit

/// The email flow's decisions without a server: countdown arithmetic on an injected clock, the
/// code's shape, and where each refusal lands.
@MainActor @Suite struct EmailVerificationFlowTests {
    static let offline = AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en)

    @Test func countdownRunsFromTheCooldownOnTheInjectedClock() {
        let clock = TestClock()
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline), now: clock.function)
        #expect(flow.resendCountdown(at: clock.now) == 0)
        #expect(flow.canResend)

        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        #expect(flow.phase == .codeSent(expiresAt: clock.now.addingTimeInterval(600)))
        #expect(flow.resendCountdown(at: clock.now) == 60)
        #expect(!flow.canResend)
        #expect(flow.resendCountdown(at: clock.now.addingTimeInterval(0.2)) == 60, "a started second counts whole")
        #expect(flow.resendCountdown(at: clock.now.addingTimeInterval(59.5)) == 1)
        #expect(flow.resendCountdown(at: clock.now.addingTimeInterval(60)) == 0)
        #expect(flow.resendCountdown(at: clock.now.addingTimeInterval(3600)) == 0)

        clock.advance(59)
        #expect(!flow.canResend)
        clock.advance(1)
        #expect(flow.canResend)
    }

    @Test func thePolicysCooldownSetsTheCountdown() {
        let clock = TestClock()
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline), now: clock.function)
        var rules = FormRules()
        rules.resendCooldown = 30
        flow.use(rules)
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        #expect(flow.resendCountdown(at: clock.now) == 30)
    }

    @Test func rateLimitStartsTheCountdownFromTheServersValue() {
        let clock = TestClock()
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline), now: clock.function)
        flow.apply(.rateLimited(retryAfter: 42))
        #expect(flow.resendCountdown(at: clock.now) == 42)
        #expect(flow.message == "Too many requests. Try again in 42 seconds.")
        clock.advance(42)
        #expect(flow.canResend)

        flow.apply(.rateLimited(retryAfter: nil))
        #expect(flow.resendCountdown(at: clock.now) == 60, "without Retry-After the cooldown is the guess")
    }

    @Test func anInvalidAddressIsRefusedBeforeSending() async {
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline))
        flow.email = "minsu@"
        await flow.sendCode()
        #expect(flow.errors(for: .email).first == "Enter a valid email address.")
        #expect(flow.phase == .enterEmail)
        #expect(flow.message == nil, "nothing was sent, so no connection error")
        flow.email = "minsu@example.com"
        #expect(flow.errors(for: .email).first == nil, "editing clears the error")
    }

    @Test func aCodeMustBeSixDigitsBeforeItIsSent() async {
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline))
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        #expect(!flow.canVerify)
        flow.code = "12345"
        #expect(!flow.canVerify)
        await flow.verify()
        #expect(flow.errors(for: .code).first == "Enter the 6 digits from the email.")
        #expect(flow.message == nil)
        flow.code = "123456"
        #expect(flow.errors(for: .code).first == nil)
        #expect(flow.canVerify)
    }

    @Test func verifyNeedsACodeSentFirst() {
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline))
        flow.code = "123456"
        #expect(!flow.canVerify)
    }

    @Test(arguments: [
        (ErrorCode.codeInvalid, false, "Check the verification code in the email and try again."),
        (ErrorCode.codeExpired, true, "The verification code has expired, so please request a new one."),
        (ErrorCode.tooManyAttempts, true, "The code was entered wrongly too many times, so please request a new one."),
    ])
    func rejectedCodesShowOnTheCodeField(reason: ErrorCode, needsNewCode: Bool, text: String) {
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline))
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        flow.apply(.codeRejected(reason))
        #expect(flow.errors(for: .code).first == text)
        #expect(flow.needsNewCode == needsNewCode)
        #expect(flow.errors(for: .email).first == nil)
        #expect(flow.message == nil)
    }

    @Test func aNewCodeClearsNeedsNewCode() {
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline))
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        flow.apply(.codeRejected(.tooManyAttempts))
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        #expect(!flow.needsNewCode)
        #expect(flow.errors(for: .code).first == nil)
    }

    @Test func fieldErrorsLandOnTheFieldThatCausedThem() {
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline))
        flow.apply(.invalidInput([
            "email": [FieldError(code: .tooLong, message: "Use at most 254 characters.")],
            "code": [FieldError(code: .invalidFormat, message: "Enter the 6 digits from the email.")],
        ]))
        #expect(flow.errors(for: .email).first == "Use at most 254 characters.")
        #expect(flow.errors(for: .code).first == "Enter the 6 digits from the email.")
        #expect(flow.message == nil)

        flow.apply(.invalidInput(["purpose": [FieldError(code: .invalidChoice, message: "Choose one of the allowed values.")]]))
        #expect(flow.message == "Choose one of the allowed values.", "a field the screen lacks explains the flow")
    }

    @Test func koreanMessagesFollowTheClient() {
        let flow = EmailVerificationFlow(session: .inMemory(AccountClient(baseURL: Self.offline.baseURL, language: .ko)))
        flow.apply(.codeRejected(.codeExpired))
        #expect(flow.errors(for: .code).first == "인증 코드의 유효 시간이 지났으니 새 코드를 요청해 주세요.")
    }

    @Test func changingTheAddressGoesBack() {
        let flow = EmailVerificationFlow(session: .inMemory(Self.offline))
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        flow.code = "123"
        flow.changeEmail()
        #expect(flow.phase == .enterEmail)
        #expect(flow.code.isEmpty)
        #expect(flow.email == "minsu@example.com")
    }
}

/// The code screen's main button and the spent-code state, without a server.
@MainActor @Suite struct EmailVerificationActionTests {
    @Test func theMainButtonSendsThenVerifiesThenAsksForANewCodeOnceSpent() {
        let clock = TestClock()
        let flow = EmailVerificationFlow(session: .inMemory(EmailVerificationFlowTests.offline), now: clock.function)
        #expect(flow.primaryAction == .sendCode)
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        #expect(flow.primaryAction == .verify)
        flow.code = "123456"
        #expect(flow.canPerformPrimaryAction(at: clock.now))

        flow.apply(.codeRejected(.tooManyAttempts))
        #expect(flow.primaryAction == .sendNewCode)
        #expect(!flow.canVerify, "a spent code is not sent again")
        #expect(!flow.canPerformPrimaryAction(at: clock.now), "the countdown holds the new code back")
        #expect(flow.canPerformPrimaryAction(at: clock.now.addingTimeInterval(60)))

        flow.apply(.codeRejected(.codeInvalid))
        #expect(flow.primaryAction == .sendNewCode, "a later refusal does not undo the spent code")
    }

    @Test func anExpiredCodeAlsoNeedsANewOne() {
        let flow = EmailVerificationFlow(session: .inMemory(EmailVerificationFlowTests.offline))
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        flow.apply(.codeRejected(.codeExpired))
        flow.code = "654321"
        #expect(!flow.canVerify)
        #expect(flow.errors(for: .code).first == Messages.detail(.codeExpired, .en), "the reason stays while typing")
    }

    @Test func aWrongCodeIsClearedByEditing() {
        let flow = EmailVerificationFlow(session: .inMemory(EmailVerificationFlowTests.offline))
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        flow.apply(.codeRejected(.codeInvalid))
        #expect(!flow.needsNewCode)
        flow.code = "1"
        #expect(flow.errors(for: .code).first == nil)
    }

    @Test func anIncompleteCodeIsNotSentByItself() async {
        let flow = EmailVerificationFlow(session: .inMemory(EmailVerificationFlowTests.offline))
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        for partial in ["", "1", "12345", "12345a", "1234567"] {
            flow.code = partial
            #expect(!flow.isCodeComplete, "\(partial)")
            await flow.verifyIfComplete()
            #expect(flow.errors(for: .code).first == nil && flow.message == nil, "nothing was sent for \(partial.debugDescription)")
        }
        flow.code = " 123456 "
        #expect(flow.isCodeComplete, "pasted with spaces")
    }

    @Test func aRefusedCodeIsNotSentAgainByItselfButAnEditedOneIs() async {
        let flow = EmailVerificationFlow(session: .inMemory(.preview()))
        flow.codeWasSent(to: "minsu@example.com", expiresIn: 600)
        flow.code = "123456"
        await flow.verifyIfComplete()
        #expect(flow.token == "preview-token")
        flow.reappeared()
        #expect(flow.phase == .enterEmail, "a proof handed on may be spent: start again at the address")
        #expect(flow.email == "minsu@example.com")
    }

    @Test func theCountdownIsPerAddress() {
        let clock = TestClock()
        let flow = EmailVerificationFlow(session: .inMemory(EmailVerificationFlowTests.offline), now: clock.function)
        flow.codeWasSent(to: "a@example.com", expiresIn: 600)
        flow.apply(.codeRejected(.tooManyAttempts))
        flow.changeEmail()
        #expect(!flow.needsNewCode && flow.errors(for: .code).first == nil && flow.code.isEmpty)
        #expect(flow.resendCountdown(at: clock.now) == 60)
        flow.email = "b@example.com"
        #expect(flow.resendCountdown(at: clock.now) == 0)
        #expect(flow.canPerformPrimaryAction(at: clock.now))
        flow.apply(.rateLimited(retryAfter: 30))
        #expect(flow.resendCountdown(at: clock.now) == 30, "a refusal counts for the address it was about")
        flow.email = "a@example.com"
        #expect(flow.resendCountdown(at: clock.now) == 60)
    }
}
