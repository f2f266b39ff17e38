import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// `SessionManager` and `AccountClient` with a second factor, against the account app: the
/// login's challenge and its answers, enrolment, new recovery codes, turning it off, and the
/// changes that need the factor.
@Suite struct SecondFactorSessionTests {
    @Test func aLoginWaitsForTheCodeThenSignsInWithOtpInTheToken() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        let challenge = try await fixture.challenge(manager)
        #expect(challenge.methods == [.totp, .recoveryCode])
        #expect(challenge.acceptsRecoveryCode && challenge.acceptsAuthenticatorCode)
        #expect(challenge.attemptsLeft == 5)
        #expect(await manager.state == .awaitingSecondFactor(challenge))
        #expect(manager.currentState.challenge == challenge)
        #expect(try manager.stored() == nil, "nothing is stored before the second factor")
        #expect(!String(describing: challenge).contains(challenge.mfaToken), "the token does not print")

        let code = fixture.nextCode()
        // As an authenticator app shows it, with a space.
        let user = try await manager.verifySecondFactor(code: String(code.prefix(3)) + " " + code.dropFirst(3))
        #expect(user.username == fixture.account.username)
        #expect(await manager.state == .signedIn(user))
        #expect(await manager.secondFactorChallenge == nil)
        let stored = try #require(try manager.stored())
        #expect(try amr(stored.access) == ["pwd", "otp"])
        #expect(user.mfa == SecondFactorStatus(totp: true, recoveryCodesLeft: 10))
    }

    @Test func aRecoveryCodeSignsInOnceAndCountsDown() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        _ = try await fixture.challenge(manager)
        // Typed in capitals and without the hyphen: the same code.
        let typed = fixture.recoveryCodes[0].uppercased().replacingOccurrences(of: "-", with: " ")
        let user = try await manager.verifySecondFactor(recoveryCode: typed)
        #expect(user.mfa?.recoveryCodesLeft == 9)
        #expect(try amr(try #require(try manager.stored()).access) == ["pwd", "recovery_code"])

        try await manager.logOut()
        _ = try await fixture.challenge(manager)
        await #expect(throws: AccountError.codeRejected(.codeInvalid)) {
            try await manager.verifySecondFactor(recoveryCode: fixture.recoveryCodes[0])
        }
        #expect(await manager.secondFactorChallenge?.wrongCodes == 1, "a used code is a wrong one")
    }

    @Test func wrongCodesCountUntilTheStepIsSpentAndTheStateGoesBackToSignedOut() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        _ = try await fixture.challenge(manager)
        for tried in 1...4 {
            await #expect(throws: AccountError.codeRejected(.codeInvalid)) { try await manager.verifySecondFactor(code: fixture.wrongCode()) }
            let challenge = try #require(await manager.secondFactorChallenge)
            #expect(challenge.wrongCodes == tried && challenge.attemptsLeft == 5 - tried)
            #expect(await manager.state == .awaitingSecondFactor(challenge), "the state carries the count")
        }
        await #expect(throws: AccountError.secondFactorChallengeEnded(.tooManyAttempts)) {
            try await manager.verifySecondFactor(code: fixture.wrongCode())
        }
        #expect(await manager.state == .signedOut)
        #expect(await manager.secondFactorChallenge == nil)
        // The right code cannot finish a spent step: none is waiting.
        await #expect(throws: AccountError.secondFactorChallengeEnded(.codeInvalid)) {
            try await manager.verifySecondFactor(code: fixture.nextCode())
        }
        #expect(
            AccountError.secondFactorChallengeEnded(.tooManyAttempts).localizedDescription(in: .en)
                == "Too many wrong codes for this sign-in. Log in again with your password.")
        #expect(
            AccountError.secondFactorChallengeEnded(.codeExpired).localizedDescription(in: .ko)
                == "로그인 단계가 5분이 지나 만료되었어요. 비밀번호로 다시 로그인해 주세요.")
    }

    @Test func anExpiredStepIsEndedByTheDeviceClockOrByTheServer() async throws {
        let fixture = try await SecondFactorFixture.make()
        // The device's clock says the 5 minutes are over: nothing is sent.
        let manager = fixture.manager()
        _ = try await fixture.challenge(manager)
        fixture.server.clock.advance(SecondFactorChallenge.lifetime + 1)
        await #expect(throws: AccountError.secondFactorChallengeEnded(.codeExpired)) {
            try await manager.verifySecondFactor(code: fixture.nextCode())
        }
        #expect(await manager.state == .signedOut)

        // A device clock that stands still: the server's `code_expired` ends it the same way.
        let stillClock = TestClock.atNow()
        let stale = SessionManager(client: fixture.server.client(), store: InMemoryCredentialStore(), now: stillClock.function)
        _ = try await fixture.challenge(stale)
        fixture.server.clock.advance(SecondFactorChallenge.lifetime + 1)
        await #expect(throws: AccountError.secondFactorChallengeEnded(.codeExpired)) {
            try await stale.verifySecondFactor(code: fixture.nextCode())
        }
        #expect(await stale.state == .signedOut)
    }

    @Test func goingBackToThePasswordDropsTheStep() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        _ = try await fixture.challenge(manager)
        await manager.cancelSecondFactor()
        #expect(await manager.state == .signedOut)
        await #expect(throws: AccountError.secondFactorChallengeEnded(.codeInvalid)) {
            try await manager.verifySecondFactor(code: fixture.nextCode())
        }
        // A new login asks again, and a new challenge works.
        _ = try await fixture.challenge(manager)
        _ = try await manager.verifySecondFactor(code: fixture.nextCode())
        #expect(await manager.state.user != nil)
    }

    @Test func theSessionsAmrSurvivesTheAutomaticRefresh() async throws {
        let fixture = try await SecondFactorFixture.make()
        let counter = CountingTransport(over: fixture.server)
        let manager = SessionManager(
            client: fixture.server.client(transport: counter.transport), store: InMemoryCredentialStore(), now: fixture.server.clock.function)
        _ = try await fixture.challenge(manager)
        _ = try await manager.verifySecondFactor(code: fixture.nextCode())
        let first = try #require(try manager.stored())
        // Past the access token's 15 minutes: the next call refreshes by itself first.
        fixture.server.clock.advance(16 * 60)
        _ = try await manager.me()
        #expect(counter.count("/auth/refresh") == 1)
        let refreshed = try #require(try manager.stored())
        #expect(refreshed.access != first.access)
        #expect(try amr(refreshed.access) == ["pwd", "otp"])
        // And a forced one.
        _ = try await manager.refresh()
        #expect(try amr(try #require(try manager.stored()).access) == ["pwd", "otp"])
    }

    @Test func enrolmentEndToEnd() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let manager = SessionManager(client: server.client(), store: InMemoryCredentialStore(), now: server.clock.function)
        let signedIn = try await manager.logIn(account.login)
        #expect(signedIn.mfa == SecondFactorStatus(totp: false, recoveryCodesLeft: 0))
        #expect(try amr(try #require(try manager.stored()).access) == ["pwd"])

        await #expect(throws: AccountError.invalidCredentials) { try await manager.enrollTOTP(password: "not the password at all") }
        await #expect(throws: AccountError.conflict(.mfaNotEnabled), "nothing to confirm yet") {
            try await manager.confirmTOTP(code: "123456")
        }
        let enrollment = try await manager.enrollTOTP(password: account.password)
        let secret = try #require(TOTPGenerator.base32Decode(enrollment.secret))
        #expect(enrollment.otpauthURL?.scheme == "otpauth")
        #expect(enrollment.groupedSecret.replacingOccurrences(of: " ", with: "") == enrollment.secret)
        #expect(enrollment.groupedSecret.split(separator: " ").allSatisfy { $0.count <= 4 })

        let now = server.clock.nextStepInProcess()
        let right = TOTPGenerator.code(secret: secret, at: now)
        let wrong = right == "000000" ? "111111" : "000000"
        await #expect(throws: AccountError.codeRejected(.codeInvalid)) { try await manager.confirmTOTP(code: wrong) }
        var events = await manager.events().makeAsyncIterator()
        let codes = try await manager.confirmTOTP(code: right)
        #expect(codes.count == 10 && Set(codes).count == 10)
        #expect(codes.allSatisfy { RecoveryCodeRule.normalize($0) != nil })
        // The state's user follows: the profile's switch is on.
        guard case .userUpdated(let updated) = await events.next() else { throw TestFailure("no userUpdated event") }
        #expect(updated.mfa == SecondFactorStatus(totp: true, recoveryCodesLeft: 10))
        #expect(manager.currentUser?.mfa?.totp == true)
        // Enrolling again is refused before any proof is read, with or without a code.
        await #expect(throws: AccountError.conflict(.mfaAlreadyEnabled)) { try await manager.enrollTOTP(password: account.password) }
        await #expect(throws: AccountError.conflict(.mfaAlreadyEnabled)) {
            try await manager.enrollTOTP(proof: .password(account.password, code: "123456"))
        }
        #expect(
            AccountError.conflict(.mfaAlreadyEnabled).localizedDescription(in: .en)
                == "Two-step verification is already on. Turn it off first to set up another authenticator app.")
    }

    @Test func newRecoveryCodesReplaceTheOldSet() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        _ = try await fixture.challenge(manager)
        _ = try await manager.verifySecondFactor(code: fixture.nextCode())
        await #expect(throws: AccountError.codeRejected(.codeInvalid)) {
            try await manager.replaceRecoveryCodes(password: fixture.account.password, code: fixture.wrongCode())
        }
        await #expect(throws: AccountError.invalidCredentials) {
            try await manager.replaceRecoveryCodes(password: "not the password at all", code: fixture.nextCode())
        }
        let fresh = try await manager.replaceRecoveryCodes(password: fixture.account.password, code: fixture.nextCode())
        #expect(fresh.count == 10 && Set(fresh).isDisjoint(with: fixture.recoveryCodes))

        let other = fixture.manager()
        _ = try await fixture.challenge(other)
        await #expect(throws: AccountError.codeRejected(.codeInvalid), "the old set stopped working") {
            try await other.verifySecondFactor(recoveryCode: fixture.recoveryCodes[1])
        }
        _ = try await other.verifySecondFactor(recoveryCode: fresh[0])
        #expect(await other.state.user?.mfa?.recoveryCodesLeft == 9)
    }

    @Test func turningItOffWithARecoveryCode() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        _ = try await fixture.challenge(manager)
        _ = try await manager.verifySecondFactor(code: fixture.nextCode())
        await #expect(throws: AccountError.codeRejected(.codeInvalid)) {
            try await manager.disableTOTP(password: fixture.account.password, recoveryCode: "zzzzz-zzzzz")
        }
        try await manager.disableTOTP(password: fixture.account.password, recoveryCode: fixture.recoveryCodes[2])
        #expect(manager.currentUser?.mfa == SecondFactorStatus(totp: false, recoveryCodesLeft: 0))
        await #expect(throws: AccountError.conflict(.mfaNotEnabled)) {
            try await manager.disableTOTP(password: fixture.account.password, code: fixture.nextCode())
        }
        // Logins need only the password again.
        let other = fixture.manager()
        let user = try await other.logIn(fixture.account.login)
        #expect(user.mfa?.totp == false)
    }

    @Test func passwordChangeAndDeletionNeedTheFactorWhileItIsOn() async throws {
        let fixture = try await SecondFactorFixture.make()
        let manager = fixture.manager()
        _ = try await fixture.challenge(manager)
        _ = try await manager.verifySecondFactor(code: fixture.nextCode())
        let newPassword = "a brand new passphrase 7"

        // Without a code: the refusal says the factor is needed, as a missing part of the proof.
        do {
            try await manager.changePassword(newPassword: newPassword, proof: .password(fixture.account.password))
            Issue.record("changed without the second factor")
        } catch let error as AccountError {
            #expect(error == .proofRequired(.secondFactor) && error.needsSecondFactor, "\(error)")
        }
        await #expect(throws: AccountError.codeRejected(.codeInvalid)) {
            try await manager.changePassword(newPassword: newPassword, proof: .password(fixture.account.password, code: fixture.wrongCode()))
        }
        try await manager.changePassword(newPassword: newPassword, proof: .password(fixture.account.password, code: fixture.nextCode()))
        // The new password still needs the factor at login.
        let other = fixture.manager()
        await #expect(throws: AccountError.self) { try await other.logIn(.identifier(fixture.account.username, password: newPassword)) }
        #expect(await other.secondFactorChallenge != nil)

        do {
            try await manager.deleteAccount(password: newPassword)
            Issue.record("deleted without the second factor")
        } catch let error as AccountError {
            #expect(error.needsSecondFactor, "\(error)")
        }
        #expect(await manager.state.user != nil, "refused: still signed in")
        var events = await manager.events().makeAsyncIterator()
        let user = try #require(manager.currentUser)
        try await manager.deleteAccount(password: newPassword, recoveryCode: fixture.recoveryCodes[0])
        #expect(await manager.state == .signedOut)
        #expect(await events.next() == .userDeleted(user))
        #expect(await events.next() == .signedOut(.accountDeleted))
    }
}
