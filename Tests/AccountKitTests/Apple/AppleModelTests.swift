import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// Sign in with Apple's models against the account app: the login screen's button path, the new
/// user's nickname step with the sign-up's rules and the server's refusals, the address that
/// needs a link, and the profile's link.
@MainActor @Suite struct AppleModelTests {
    @Test func theLoginFormLeadsANewUserThroughTheNicknameStep() async throws {
        let fixture = try await AppleFixture.start()
        let taken = try await fixture.server.registered()
        let device = fixture.device()
        let manager = fixture.manager()
        let form = LoginForm(session: manager, apple: device.authorizer)
        #expect(form.offersAppleSignIn && form.canUseAppleSignIn && !form.offersPasskey)
        await form.signInWithApple()
        #expect(form.phase == .completingAppleSignUp)
        let step = try #require(form.appleSignUp)
        #expect(step.email == device.email && step.emailNote == "Apple forwards mail from this address to yours.")
        #expect(!form.canSubmit && !form.canUseAppleSignIn, "the login waits for the step")

        // The sign-up's rules as the user types; nothing shows before.
        #expect(step.errors(for: .username).isEmpty && !step.canSubmit)
        await step.submit()
        #expect(step.errors(for: .username) == ["Please enter a nickname."] || !step.errors(for: .username).isEmpty)
        #expect(!step.errors(for: .mbti).isEmpty)
        step.username = "a"
        #expect(step.errors(for: .username).first?.contains("2") == true)
        step.username = taken.username
        step.mbti = .estj
        #expect(step.canSubmit)
        await step.submit()
        #expect(step.errors(for: .username) == [Messages.field(.taken, field: "username", .en)])
        #expect(step.message == nil, "the refusal is on its field")
        step.username = "새사과"
        #expect(step.errors(for: .username).isEmpty)
        await step.submit()
        guard case .signedIn(let user) = form.phase else { throw TestFailure("not signed in: \(form.phase)") }
        #expect(user.username == "새사과" && user.mbti == .estj)
        #expect(form.appleSignUp == nil)
    }

    @Test func theButtonPathKeepsTheNonceAndClosingTheSheetSaysNothing() async throws {
        let fixture = try await AppleFixture.start()
        let device = fixture.device()
        let manager = fixture.manager()
        let form = LoginForm(session: manager, apple: device.authorizer)
        // SignInWithAppleButton: the request takes the hash, the completion brings Apple's answer.
        let hashed = form.startAppleSignIn()
        #expect(form.isAuthorizing && hashed.count == 64)
        await form.finishAppleSignIn(.failure(.cancelled))
        #expect(form.phase == .idle && form.message == nil)
        // A finish with no attempt under way does nothing.
        await form.finishAppleSignIn(.failure(.failed(code: 1000, message: "x")))
        #expect(form.phase == .idle)

        let next = form.startAppleSignIn()
        await form.finishAppleSignIn(.success(try await device.authorizer.authorize(next)))
        #expect(form.phase == .completingAppleSignUp)
        form.cancelAppleSignUp()
        #expect(form.phase == .idle && form.appleSignUp == nil)

        // A token made for another attempt's nonce is refused by the server.
        let stale = try await device.authorizer.authorize(AppleNonce().hashed)
        _ = form.startAppleSignIn()
        await form.finishAppleSignIn(.success(stale))
        guard case .failed(.refused(let problem)) = form.phase else { throw TestFailure("not refused: \(form.phase)") }
        #expect(problem.code == .appleTokenInvalid)
    }

    @Test func anAddressWithAnAccountSaysToLogInAndLinkAndTheProfileLinks() async throws {
        let fixture = try await AppleFixture.start()
        let account = try await fixture.server.registered()
        let device = fixture.device(email: account.email)
        let manager = fixture.manager()
        let form = LoginForm(session: manager, apple: device.authorizer)
        await form.signInWithApple()
        #expect(form.phase == .appleLinkRequired)
        #expect(form.message?.hasPrefix("An account already uses the email address of your Apple ID.") == true)
        form.identifier = account.username
        form.password = account.password
        #expect(form.phase == .idle, "typing clears it")
        await form.submit()

        let link = AppleLinkModel(session: manager, authorizer: device.authorizer)
        #expect(link.isOffered && !link.isLinked && link.stepUp == nil)
        link.begin(.unlink)
        #expect(link.stepUp == nil, "nothing to unlink")
        link.begin(.link)
        let linking = try #require(link.stepUp)
        #expect(link.action == .link && linking.asksPassword && !linking.asksSecondFactor && !linking.isComplete)
        await link.confirm()
        #expect(linking.errors(for: .password) == ["Enter your password."] && !link.isLinked)
        linking.password = "not the password at all"
        await link.confirm()
        #expect(linking.errors(for: .password) == ["The password is not right."] && !link.isLinked)
        linking.password = account.password
        await link.confirm()
        #expect(link.isLinked && link.notice == "Apple is linked: you can sign in with Apple now.")
        #expect(link.stepUp == nil && link.action == nil, "the sheet closes")

        link.begin(.unlink)
        let unlinking = try #require(link.stepUp)
        unlinking.password = account.password
        await link.confirm()
        #expect(!link.isLinked && link.notice == "Apple is unlinked." && link.stepUp == nil)

        // Cancelling drops the proof.
        link.begin(.link)
        link.stepUp?.password = "typed"
        link.cancel()
        #expect(link.stepUp == nil && link.action == nil)
    }

    @Test func anExpiredSignUpSendsThePersonBackToApple() async throws {
        let fixture = try await AppleFixture.start()
        let form = LoginForm(session: fixture.manager(), apple: fixture.device().authorizer)
        await form.signInWithApple()
        let step = try #require(form.appleSignUp)
        step.username = "늦은사과"
        step.mbti = .isfp
        fixture.server.clock.advance(601)
        await step.submit()
        #expect(step.phase == .expired)
        #expect(form.phase == .failed(.codeRejected(.codeExpired)) && form.appleSignUp == nil)
        #expect(form.message == "This sign-up with Apple expired after 10 minutes, or was finished already. Sign in with Apple again.")
    }
}
