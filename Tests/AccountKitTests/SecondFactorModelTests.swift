import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// The second factor's flow models against the account app: the login's code step, enrolment,
/// new recovery codes, turning it off, and the profile's switch.
@MainActor @Suite struct SecondFactorModelTests {
    /// A login form whose password was right: it waits at the code step.
    func loginAtCodeStep(_ fixture: SecondFactorFixture, _ manager: SessionManager) async throws -> (LoginForm, SecondFactorForm) {
        let form = LoginForm(session: manager)
        form.identifier = fixture.account.username
        form.password = fixture.account.password
        await form.submit()
        #expect(form.phase == .awaitingSecondFactor)
        #expect(!form.canSubmit, "the password step is done")
        return (form, try #require(form.secondFactor))
    }

    @Test func theCodeSubmitsItselfAtTheSixthDigitAndSignsIn() async throws {
        let fixture = try await SecondFactorFixture.make()
        let counter = CountingTransport(over: fixture.server)
        let manager = SessionManager(
            client: fixture.server.client(transport: counter.transport), store: InMemoryCredentialStore(), now: fixture.server.clock.function)
        let (form, step) = try await loginAtCodeStep(fixture, manager)
        #expect(step.instructions == "Open your authenticator app and enter the 6-digit code it shows for this account.")
        #expect(step.offersRecoveryCode && step.attemptsLeft == 5)

        let wrong = fixture.wrongCode()
        step.code = String(wrong.prefix(5))
        await step.submitIfComplete()
        #expect(counter.count("/auth/mfa/verify") == 0, "five digits wait")
        step.code = wrong
        await step.submitIfComplete()
        #expect(counter.count("/auth/mfa/verify") == 1)
        #expect(step.phase == .entering)
        #expect(step.errors(for: .code) == [
            "That code is not right. Enter the code your authenticator app shows now (and check that this device's time is set automatically). 4 tries left."
        ])
        #expect(step.attemptsLeft == 4)
        await step.submitIfComplete()
        #expect(counter.count("/auth/mfa/verify") == 1, "the same refused code is not sent again by itself")

        step.code = fixture.nextCode()
        #expect(step.errors(for: .code).isEmpty, "typing clears the refusal")
        await step.submitIfComplete()
        guard case .signedIn(let user) = step.phase else { throw TestFailure("not signed in: \(step.phase)") }
        #expect(form.phase == .signedIn(user), "the login form follows its step")
        #expect(form.secondFactor == nil)
        #expect(await manager.state == .signedIn(user))
    }

    @Test func aRecoveryCodeInstead() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager(language: .ko)
        let (form, step) = try await loginAtCodeStep(fixture, manager)
        step.useRecoveryCode()
        #expect(step.method == .recoveryCode)
        #expect(step.instructions == "2단계 인증을 켤 때 저장한 복구 코드 중 하나를 입력해 주세요. 각 코드는 한 번만 쓸 수 있어요.")
        step.recoveryCode = "abc"
        #expect(!step.canSubmit)
        await step.submit()
        #expect(step.errors(for: .recoveryCode) == ["복구 코드를 입력해 주세요. abcde-12345처럼 영문과 숫자 10자예요."])
        step.recoveryCode = "zzzzz-zzzzz"
        await step.submit()
        #expect(step.errors(for: .recoveryCode) == ["복구 코드가 올바르지 않거나 이미 사용되었어요. 4번 더 시도할 수 있어요."])
        #expect(step.errors(for: .code).isEmpty, "the refusal shows under the field in use")
        step.recoveryCode = fixture.recoveryCodes[3]
        await step.submit()
        guard case .signedIn(let user) = form.phase else { throw TestFailure("not signed in: \(form.phase)") }
        #expect(user.mfa?.recoveryCodesLeft == 9)
    }

    @Test func aSpentStepSendsTheFormBackToThePasswordWithTheReason() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        let (form, step) = try await loginAtCodeStep(fixture, manager)
        for _ in 1...5 {
            step.code = fixture.wrongCode()
            await step.submit()
            // Each try a fresh wrong code, so none is "the same code again".
            fixture.server.clock.advance(30)
        }
        #expect(step.phase == .ended(.tooManyAttempts))
        #expect(form.secondFactor == nil)
        #expect(form.phase == .failed(.secondFactorChallengeEnded(.tooManyAttempts)))
        #expect(form.message == "Too many wrong codes for this sign-in. Log in again with your password.")
        #expect(form.identifier == fixture.account.username && form.password == fixture.account.password, "what was typed stays")
        #expect(await manager.state == .signedOut)
    }

    @Test func anExpiredStepSaysSo() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        let (form, step) = try await loginAtCodeStep(fixture, manager)
        fixture.server.clock.advance(SecondFactorChallenge.lifetime + 1)
        step.code = fixture.nextCode()
        await step.submitIfComplete()
        #expect(step.phase == .ended(.codeExpired))
        #expect(form.message == "This sign-in step expired after 5 minutes. Log in again with your password.")
        // Logging in again starts a new step.
        await form.submit()
        #expect(form.secondFactor != nil)
    }

    @Test func backToThePasswordAndAFormMadeLaterStartsAtTheStep() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        let (form, _) = try await loginAtCodeStep(fixture, manager)
        // A screen made again (the view was rebuilt) picks up the waiting step.
        let rebuilt = LoginForm(session: manager)
        #expect(rebuilt.phase == .awaitingSecondFactor && rebuilt.secondFactor != nil)
        #expect(AccountNavigation.root(for: await manager.state) == .logIn)

        await form.backToPassword()
        #expect(form.secondFactor == nil && form.phase == .idle && form.message == nil)
        #expect(await manager.state == .signedOut)
    }

    @Test func enrolmentFlowFromPasswordToSavedCodes() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let manager = SessionManager(client: server.client(), store: InMemoryCredentialStore(), now: server.clock.function)
        try await manager.logIn(account.login)
        let profile = ProfileModel(session: manager)
        await profile.load()
        #expect(profile.offersSecondFactor && !profile.isSecondFactorOn)
        #expect(profile.secondFactorAction == .enroll && profile.secondFactorSummary == "Off")

        let flow = TOTPEnrollmentFlow(session: manager)
        #expect(!flow.canStart)
        flow.proof.password = "not the password at all"
        await flow.start()
        #expect(flow.proof.errors(for: .password) == ["The password is not right."])
        #expect(flow.step == .proof)
        flow.proof.password = account.password
        await flow.start()
        let enrollment = try #require(flow.enrollment)
        #expect(flow.proof.password.isEmpty, "the password is not kept")
        #expect(flow.otpauthURL?.absoluteString == enrollment.otpauthURI)
        #expect(flow.groupedSecret?.replacingOccurrences(of: " ", with: "") == enrollment.secret)
        #expect(flow.instructions.hasPrefix("Scan this QR code"))
        #expect(!String(describing: flow.step).contains(enrollment.secret), "the secret does not print")

        let secret = try #require(TOTPGenerator.base32Decode(enrollment.secret))
        let right = TOTPGenerator.code(secret: secret, at: server.clock.nextStepInProcess())
        flow.code = right == "000000" ? "000001" : "000000"
        await flow.confirmIfComplete()
        #expect(flow.errors(for: .code).first?.hasPrefix("That code is not right.") == true)
        flow.code = right
        await flow.confirmIfComplete()
        #expect(flow.recoveryCodes.count == 10)
        #expect(flow.recoveryCodesText.split(separator: "\n").map(String.init) == flow.recoveryCodes)
        #expect(!flow.canFinish)
        flow.finish()
        #expect(flow.message == "Confirm that you saved your recovery codes.")
        #expect(flow.recoveryCodes.count == 10, "the codes stay until they are saved")
        flow.savedRecoveryCodes = true
        #expect(flow.message == nil && flow.canFinish)
        flow.finish()
        #expect(flow.step == .done)

        await profile.load()
        #expect(profile.isSecondFactorOn && profile.secondFactorAction == .disable)
        #expect(profile.secondFactorSummary == "On · 10 recovery codes left")
        #expect(profile.recoveryCodesWarning == nil)
    }

    @Test func newRecoveryCodesFlowAndTheProfilesWarning() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager(language: .ko)
        _ = try await fixture.challenge(manager)
        _ = try await manager.verifySecondFactor(code: fixture.nextCode())
        // Use seven of the ten on other logins: three left.
        for index in 0..<7 {
            let other = fixture.manager()
            _ = try await fixture.challenge(other)
            _ = try await other.verifySecondFactor(recoveryCode: fixture.recoveryCodes[index])
        }
        let profile = ProfileModel(session: manager)
        await profile.load()
        #expect(profile.recoveryCodesLeft == 3)
        #expect(profile.secondFactorSummary == "켜짐 · 복구 코드 3개 남음")
        #expect(profile.recoveryCodesWarning == "복구 코드가 3개만 남았어요. 새 복구 코드를 만들어 주세요.")

        let flow = RecoveryCodesFlow(session: manager)
        flow.proof.password = fixture.account.password
        flow.proof.code = "12345"
        #expect(!flow.canSubmit)
        await flow.submit()
        #expect(flow.proof.errors(for: .code) == ["인증 앱의 6자리 코드를 입력해 주세요."])
        flow.proof.code = fixture.nextCode()
        await flow.submit()
        #expect(flow.recoveryCodes.count == 10 && Set(flow.recoveryCodes).isDisjoint(with: fixture.recoveryCodes))
        #expect(!String(describing: flow.step).contains(flow.recoveryCodes[0]))
        flow.savedRecoveryCodes = true
        flow.finish()
        #expect(flow.step == .done)
        await profile.load()
        #expect(profile.recoveryCodesLeft == 10 && profile.recoveryCodesWarning == nil)
    }

    @Test func turningItOffFromTheProfile() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        _ = try await fixture.challenge(manager)
        _ = try await manager.verifySecondFactor(code: fixture.nextCode())
        let form = SecondFactorDisableForm(session: manager)
        form.proof.password = fixture.account.password
        form.proof.code = fixture.wrongCode()
        #expect(form.canSubmit)
        await form.submit()
        #expect(form.proof.errors(for: .code).first?.hasPrefix("That code is not right.") == true)
        #expect(!form.isDisabled)
        form.proof.useRecoveryCode()
        #expect(form.proof.errors(for: .code).isEmpty, "switching clears the refusal")
        form.proof.recoveryCode = fixture.recoveryCodes[9]
        form.proof.password = "not the password at all"
        await form.submit()
        #expect(form.proof.errors(for: .password) == ["The password is not right."])
        form.proof.password = fixture.account.password
        await form.submit()
        #expect(form.isDisabled && form.proof.password.isEmpty)
        let profile = ProfileModel(session: manager)
        await profile.load()
        #expect(!profile.isSecondFactorOn && profile.secondFactorAction == .enroll)
    }
}

/// What the second factor's values print and say, without a server.
@Suite struct SecondFactorValueTests {
    @Test func anEntryReadsCodesAsPeopleTypeThem() {
        var entry = SecondFactorEntry()
        entry.code = "123 456"
        #expect(entry.isComplete && entry.wire.code == "123456" && entry.wire.recoveryCode == nil)
        entry.code = "12345"
        #expect(entry.problems == [.invalidFormat])
        entry.method = .recoveryCode
        entry.recoveryCode = " ABCDE-FGH1O "
        #expect(entry.isComplete && entry.wire.code == nil && entry.wireName == "recovery_code")
        #expect(SecondFactorEntry(answer: " 654 321").method == .authenticatorCode)
        #expect(SecondFactorEntry(answer: "abcde-12345").method == .recoveryCode)
        #expect(!String(describing: entry).contains("ABCDE"))
    }

    @Test func theChallengeAndTheErrorsPrintWithoutTheToken() {
        let challenge = SecondFactorChallenge(mfaToken: "the-mfa-token", methods: [.totp])
        for text in RedactionTests.everyText(of: challenge) + RedactionTests.everyText(of: AccountError.secondFactorRequired(challenge))
            + RedactionTests.everyText(of: SessionManager.State.awaitingSecondFactor(challenge))
        {
            #expect(!text.contains("the-mfa-token"), "\(text)")
        }
        #expect(!challenge.acceptsRecoveryCode)
        #expect(RedactionTests.everyText(of: TOTPEnrollmentFlow.Step.scan(TOTPEnrollment(secret: "JBSWY3DPEHPK3PXP", otpauthURI: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP")))
            .allSatisfy { !$0.contains("JBSWY3DPEHPK3PXP") })
        #expect(RedactionTests.everyText(of: RecoveryCodesFlow.Step.codes(["abcde-12345"])).allSatisfy { !$0.contains("abcde-12345") })
    }

    @Test func mfaRequiredBecomesAChallenge() {
        let problem = Problem(
            title: "Second factor needed", status: 403, code: .mfaRequired, mfaToken: "tok", methods: [.totp, .recoveryCode])
        guard case .secondFactorRequired(let challenge) = AccountError(status: 403, problem: problem, retryAfter: nil) else {
            Issue.record("not a challenge")
            return
        }
        #expect(challenge.mfaToken == "tok" && challenge.methods == [.totp, .recoveryCode])
        #expect(AccountError(status: 409, problem: Problem(title: "", status: 409, code: .mfaNotEnabled), retryAfter: nil) == .conflict(.mfaNotEnabled))
    }
}
