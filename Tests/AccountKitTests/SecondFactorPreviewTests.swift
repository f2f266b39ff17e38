import AccountAPI
import Foundation
import Testing

@testable import AccountKit

/// The second-factor screens' previews run on the in-memory client: each flow gets to the end
/// the screen shows, so a preview is never stuck on an error.
@MainActor @Suite struct SecondFactorPreviewTests {
    @Test func theLoginScreenOfAWaitingLoginStartsAtTheCodeStepAndSignsIn() async throws {
        let session = SessionManager.preview(language: .ko)
        _ = try await session.restore()
        let challenge = await session.awaitPreviewSecondFactor()
        #expect(challenge.acceptsRecoveryCode)
        #expect(session.currentState == .awaitingSecondFactor(challenge))
        let login = LoginForm(session: session)
        let step = try #require(login.secondFactor, "a login form made now shows the code step")
        step.code = "12345"
        await step.submitIfComplete()
        #expect(step.phase == .entering, "five digits wait")
        step.code = "123456"
        await step.submitIfComplete()
        #expect(step.phase == .signedIn(SessionManager.previewUser))
        #expect(login.phase == .signedIn(SessionManager.previewUser))
        #expect(session.currentState == .signedIn(SessionManager.previewUser))
    }

    @Test func enrolmentShowsAScannableURIThenTenCodesUntilSaved() async throws {
        let session = SessionManager.preview(signedIn: true)
        _ = try await session.restore()
        let flow = TOTPEnrollmentFlow(session: session)
        flow.proof.password = "anything at all"
        await flow.start()
        let enrollment = try #require(flow.enrollment)
        #expect(flow.otpauthURL?.scheme == "otpauth")
        #expect(enrollment.groupedSecret.split(separator: " ").allSatisfy { $0.count <= 4 })
        flow.code = "123456"
        await flow.confirmIfComplete()
        #expect(flow.recoveryCodes.count == 10)
        flow.finish()
        #expect(!flow.canFinish && flow.step != .done, "not before 'I saved them'")
        flow.savedRecoveryCodes = true
        flow.finish()
        #expect(flow.step == .done)
    }

    @Test func newCodesAndTurningOffFinishToo() async throws {
        let session = SessionManager.preview(signedIn: true)
        _ = try await session.restore()
        let codes = RecoveryCodesFlow(session: session)
        codes.proof.password = "anything at all"
        codes.proof.code = "123456"
        await codes.submit()
        #expect(codes.recoveryCodes.count == 10)
        let off = SecondFactorDisableForm(session: session)
        off.proof.password = "anything at all"
        off.proof.useRecoveryCode()
        off.proof.recoveryCode = "k3m9x-2pqrt"
        await off.submit()
        #expect(off.isDisabled)
        #expect(off.message == nil)
    }
}
