#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// What the screens' `#Preview`s show: each screen in a navigation stack over an in-memory client
/// (``AccountClient/preview(language:)``), in English or Korean. Kept apart from the macros so the
/// iOS type-check compiles it.
@MainActor enum AccountPreviews {
    static func root(signedIn: Bool, language: Language = .en) -> some View {
        AccountRootView(session: .preview(signedIn: signedIn, language: language), installation: .never)
    }

    static func login(language: Language = .en) -> some View {
        PreviewStack(language: language) { LoginScreen(session: $0, launch: AccountLaunch(session: $0, installation: .never)) }
    }

    static func emailCode(purpose: CodePurpose, codeSent: Bool, language: Language = .en) -> some View {
        PreviewStack(language: language) {
            EmailCodeScreen(
                session: $0, email: codeSent ? SessionManager.previewUser.email : "", purpose: purpose,
                codeExpiresIn: codeSent ? 600 : nil)
        }
    }

    static func signUp(language: Language = .en) -> some View {
        PreviewStack(language: language) { SignUpScreen(session: $0, verifiedEmail: "jiwoo@example.com", token: "preview-token") }
    }

    static func passwordReset(language: Language = .en) -> some View {
        PreviewStack(language: language) { PasswordResetScreen(session: $0, email: SessionManager.previewUser.email) }
    }

    static func profile(language: Language = .en, methods: SignInMethods = []) -> some View {
        PreviewStack(signedIn: true, language: language) { ProfileScreen(session: $0, user: SessionManager.previewUser, methods: methods) }
    }

    /// The account's security history, as the profile leads to it (a warning among the events).
    static func securityHistory(language: Language = .en) -> some View {
        PreviewStack(signedIn: true, language: language) { SecurityHistoryScreen(session: $0) }
    }

    /// The login screen with a passkey and Sign in with Apple under the password.
    static func loginWithMethods(language: Language = .en) -> some View {
        PreviewStack(language: language) {
            LoginScreen(session: $0, launch: AccountLaunch(session: $0, installation: .never), methods: [.passkeys, .apple])
        }
    }

    /// The nickname and MBTI type of Apple's new user, as the login screen shows them.
    static func appleSignUpStep(language: Language = .en) -> some View {
        PreviewStack(language: language) { session in
            FormColumn(focus: Optional<AppleSignUpForm.Field>.none) {
                AppleSignUpStepView(form: AppleSignUpForm(session: session, signUp: SessionManager.previewAppleSignUp)) {}
            }
        }
    }

    /// Removing a passkey, as the profile's sheet shows it.
    static func passkeyRemoval(language: Language = .en) -> some View {
        PreviewStack(signedIn: true, language: language) { session in
            PasskeyRemovalScreen(
                form: PasskeyListModel(session: session, authorizer: .platform()).removal(
                    of: Passkey(
                        id: UUID(), name: "iPhone", credentialID: "c2FtcGxl", algorithm: -7, backupEligible: true, backedUp: true,
                        transports: [], createdAt: Date(), lastUsedAt: nil),
                    for: SessionManager.previewUser))
        }
    }

    /// The login screen at its second step, as after a right password for an account with one.
    static func secondFactorStep(language: Language = .en) -> some View {
        PreviewStack(language: language) { SecondFactorStepPreview(session: $0) }
    }

    /// Turning on two-step verification, as the profile's sheet shows it (the sample account
    /// holds passkeys, so one proves it).
    static func enrollment(language: Language = .en) -> some View {
        PreviewStack(signedIn: true, language: language) { TOTPEnrollmentScreen(session: $0, methods: .passkeys) }
    }

    /// A new set of recovery codes, as the profile's sheet shows it.
    static func newRecoveryCodes(language: Language = .en) -> some View {
        PreviewStack(signedIn: true, language: language) { NewRecoveryCodesScreen(session: $0, methods: .passkeys) }
    }

    /// Turning off two-step verification, as the profile's sheet shows it.
    static func disableSecondFactor(language: Language = .en) -> some View {
        PreviewStack(signedIn: true, language: language) { SecondFactorDisableScreen(session: $0, methods: .passkeys) }
    }

    /// A new password, as the profile's sheet shows it.
    static func passwordChange(language: Language = .en) -> some View {
        PreviewStack(signedIn: true, language: language) { PasswordChangeScreen(session: $0, methods: .passkeys) }
    }

    /// Deleting the account, as the profile's sheet shows it.
    static func accountDeletion(language: Language = .en) -> some View {
        PreviewStack(signedIn: true, language: language) { AccountDeletionScreen(session: $0, methods: .passkeys) }
    }
}

/// A navigation stack with its navigator over an in-memory session, as ``AccountRootView`` gives one.
struct PreviewStack<Content: View>: View {
    @State private var navigator = AccountNavigator()
    @State private var session: SessionManager
    private let content: (SessionManager) -> Content

    init(signedIn: Bool = false, language: Language, @ViewBuilder content: @escaping (SessionManager) -> Content) {
        _session = State(initialValue: .preview(signedIn: signedIn, language: language))
        self.content = content
    }

    var body: some View {
        NavigationStack(path: $navigator.path) {
            content(session)
                .navigationDestination(for: AccountRoute.self) { route in
                    AccountDestinationView(route: route, session: session)
                }
        }
        .environment(navigator)
        .environment(\.locale, Locale(identifier: session.client.language.rawValue))
    }
}

/// The login screen of a login waiting for its second factor (the in-memory server signs in with
/// any code).
private struct SecondFactorStepPreview: View {
    let session: SessionManager
    @State private var isWaiting = false

    var body: some View {
        Group {
            if isWaiting {
                LoginScreen(session: session, launch: AccountLaunch(session: session, installation: .never))
            } else {
                ProgressView()
            }
        }
        .task {
            _ = await session.awaitPreviewSecondFactor()
            isWaiting = true
        }
    }
}
#endif
