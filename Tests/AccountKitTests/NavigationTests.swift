import AccountAPI
import Foundation
import Testing

@testable import AccountKit

/// Which screen follows which, decided without SwiftUI so the screens only carry it out.
@Suite struct NavigationTests {
    static let user = User(
        id: UUID(), username: "민수", email: "minsu@example.com", emailVerified: true, mbti: .enfp,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000))

    @Test func theRootWaitsWhileTheStateIsUnknown() {
        #expect(AccountNavigation.root(for: .unknown) == .waiting, "a locked Keychain must not flash login")
        #expect(AccountNavigation.root(for: .signedOut) == .logIn)
        #expect(AccountNavigation.root(for: .signedIn(Self.user)) == .profile(Self.user))
    }

    @Test func aMailedCodeLeadsToTheCodeScreenForThatAddress() {
        #expect(
            AccountNavigation.afterSignUp(.codeSent(email: "minsu@example.com", expiresIn: 600))
                == .push(.emailCode(email: "minsu@example.com", purpose: .verify, codeExpiresIn: 600)))
        #expect(AccountNavigation.afterSignUp(.signedIn(Self.user)) == .popToRoot)
    }

    @Test func theSignUpFormStaysWhileFilledSentOrRefused() {
        #expect(AccountNavigation.afterSignUp(.idle) == .stay)
        #expect(AccountNavigation.afterSignUp(.submitting) == .stay)
        #expect(AccountNavigation.afterSignUp(.failed(.conflict(.usernameTaken))) == .stay)
    }

    @Test func anUnverifiedLoginLeadsToTheCodeScreenWithoutSendingACode() {
        #expect(
            AccountNavigation.afterLogIn(needsEmailVerification: true, email: "minsu@example.com")
                == .push(.emailCode(email: "minsu@example.com", purpose: .verify, codeExpiresIn: nil)))
        #expect(
            AccountNavigation.afterLogIn(needsEmailVerification: true, email: nil)
                == .push(.emailCode(email: "", purpose: .verify, codeExpiresIn: nil)),
            "a nickname login leaves the address to the user")
        #expect(AccountNavigation.afterLogIn(needsEmailVerification: false, email: "minsu@example.com") == .stay)
    }

    @Test func aVerifiedAccountGoesBackToLoginAndAProvenAddressOnToSignUp() {
        let verified = EmailVerificationFlow.Phase.verified(token: "tok")
        #expect(AccountNavigation.afterVerification(verified, purpose: .verify, email: "a@example.com") == .popToRoot)
        #expect(
            AccountNavigation.afterVerification(verified, purpose: .signup, email: "a@example.com")
                == .push(.verifiedSignUp(email: "a@example.com", token: "tok")))
        let sent = EmailVerificationFlow.Phase.codeSent(expiresAt: Date())
        #expect(AccountNavigation.afterVerification(sent, purpose: .signup, email: "a@example.com") == .stay)
        #expect(AccountNavigation.afterVerification(.enterEmail, purpose: .verify, email: "a@example.com") == .stay)
    }

    @Test func leavingSignUpAsksOnlyWithUnusedInput() {
        #expect(AccountNavigation.confirmsLeavingSignUp(hasInput: true, phase: .idle))
        #expect(AccountNavigation.confirmsLeavingSignUp(hasInput: true, phase: .failed(.invalidCredentials)))
        #expect(!AccountNavigation.confirmsLeavingSignUp(hasInput: false, phase: .idle))
        #expect(!AccountNavigation.confirmsLeavingSignUp(hasInput: true, phase: .codeSent(email: "a@example.com", expiresIn: 600)))
        #expect(!AccountNavigation.confirmsLeavingSignUp(hasInput: true, phase: .submitting))
    }

    @MainActor @Test func aFreshSignUpFormLeavesWithoutAskingAndAsksOnceTyped() {
        let form = SignUpForm(session: .inMemory(AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en)))
        #expect(!AccountNavigation.confirmsLeavingSignUp(hasInput: form.hasInput, phase: form.phase))
        form.username = "민"
        #expect(AccountNavigation.confirmsLeavingSignUp(hasInput: form.hasInput, phase: form.phase))
    }
}

/// The email-first entry, leaving it, and the root after a failed restore.
@Suite struct EmailFirstNavigationTests {
    @Test func createAnAccountOpensTheAddressStepAndLeavingGoesToTheRoot() {
        #expect(AccountNavigation.signUpEntry == .push(.signUp))
        #expect(AccountNavigation.leavingSignUp == .popToRoot)
        #expect(AccountNavigation.afterVerificationExpired == .pop)
    }

    @Test(arguments: [
        (CredentialStoreError.locked, RootScreen.waiting), (.missingEntitlement, .logIn), (.accessDenied, .logIn), (.failed("x"), .logIn),
    ])
    func onlyALockedStoreWaits(failure: CredentialStoreError, screen: RootScreen) {
        #expect(AccountNavigation.root(for: .unknown, restoreFailure: failure) == screen)
        #expect(AccountNavigation.root(for: .signedOut, restoreFailure: failure) == .logIn)
    }

    @Test func withoutAFailureTheUnknownStateWaits() {
        #expect(AccountNavigation.root(for: .unknown, restoreFailure: nil) == .waiting)
    }
}

/// The in-memory client behind the screens' previews answers every screen's calls.
@MainActor @Suite struct PreviewClientTests {
    @Test func aSignedInPreviewSessionRestoresAndLoadsTheProfileAndDevices() async throws {
        let session = SessionManager.preview(signedIn: true, language: .ko)
        #expect(try await session.restore() == .signedIn(SessionManager.previewUser))
        let profile = ProfileModel(session: session)
        await profile.load()
        await profile.loadSessions()
        #expect(profile.user == SessionManager.previewUser)
        #expect(profile.sessions.count == 2)
        #expect(profile.sessions.first?.deviceName == "MBTI Playground 1.0 · iPhone15,2 · iOS 17.4")
        profile.startEditing()
        profile.draftMBTI = .intj
        await profile.save()
        #expect(profile.user?.mbti == .intj)
        #expect(profile.message == nil)
    }

    @Test func theOtherScreensRunOnItToo() async {
        let session = SessionManager.preview()
        let login = LoginForm(session: session)
        login.identifier = "민수"
        login.password = "anything at all"
        await login.submit()
        #expect(login.phase == .signedIn(SessionManager.previewUser))
        let reset = PasswordResetForm(session: .inMemory(session.client), email: "minsu@example.com")
        await reset.requestCode()
        reset.code = "123456"
        reset.newPassword = "a new long passphrase"
        await reset.confirm()
        #expect(reset.phase == .done)
        let signUp = SignUpForm(session: .inMemory(session.client))
        await signUp.loadPolicy()
        #expect(signUp.mbtiChoices == MBTI.allCases)
    }
}
