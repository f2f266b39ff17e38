#if canImport(SwiftUI)
import AccountKit
import AuthenticationServices
import SwiftUI
#if canImport(_AuthenticationServices_SwiftUI)
// `SignInWithAppleButton`: the cross-import overlay Xcode adds by itself; named for builds that do not.
import _AuthenticationServices_SwiftUI
#endif

/// The login screen over ``LoginForm``: nickname or email and password, with links to sign-up
/// (email first) and password reset. A right password for an unverified address leads to the
/// code screen; coming back verified, a line says so in place of the "verify your email" message. A right password for an
/// account with a second factor leads to its code step here, in place of the password
/// (``SecondFactorStepView``); when that step is over, the password is back with the reason. When
/// the app offers them, "Log in with a passkey" and `SignInWithAppleButton` sit under the password;
/// Apple's new user chooses a nickname and MBTI type here (``AppleSignUpStepView``). Closing a
/// system sheet shows nothing. What
/// ``AccountLaunch`` has to say (a store that failed, a session that ended with a reinstall) shows
/// above, with a retry.
struct LoginScreen: View {
    typealias Field = LoginForm.Field

    @State private var form: LoginForm
    let launch: AccountLaunch
    @FocusState private var focus: Field?
    @Environment(AccountNavigator.self) private var navigator
    @Environment(\.colorScheme) private var colorScheme

    /// - Parameters:
    ///   - session: the session the login starts.
    ///   - launch: the root's launch state, for its message and retry.
    ///   - methods: the ways to log in the app offers beside the password.
    @MainActor init(session: SessionManager, launch: AccountLaunch, methods: SignInMethods = []) {
        _form = State(initialValue: LoginForm(session: session, passkeys: methods.passkeyAuthorizer, apple: methods.appleAuthorizer))
        self.launch = launch
    }

    var body: some View {
        FormColumn(focus: focus) {
            if let notice = launch.message {
                LaunchNotice(message: notice, retryTitle: launch.canRetry ? text(.tryAgain) : nil) {
                    Task { await launch.retry() }
                }
            }
            if let step = form.secondFactor {
                SecondFactorStepView(step: step) {
                    Task { await form.backToPassword() }
                }
            } else if let signUp = form.appleSignUp {
                AppleSignUpStepView(form: signUp) { form.cancelAppleSignUp() }
            } else {
                passwordStep
            }
        }
        .navigationTitle(text(form.secondFactor != nil ? .twoStepVerification : form.appleSignUp != nil ? .finishSignUp : .logIn))
        .onAppear {
            if navigator.emailWasVerified {
                navigator.emailWasVerified = false
                form.emailWasVerified()
            } else {
                form.reappeared()
            }
        }
    }

    /// Nickname or email, password, and the ways to sign-up and password reset.
    @ViewBuilder private var passwordStep: some View {
        SignupTextFieldView(
            kind: .identifier, title: text(.identifier), text: $form.identifier, field: Field.identifier,
            focus: $focus, errors: form.errors(for: .identifier)
        ) { focus = .password }
        .id(Field.identifier)
        SignupTextFieldView(
            kind: .password, title: text(.password), text: $form.password, field: Field.password,
            focus: $focus, errors: form.errors(for: .password), submitLabel: .go
        ) { submit() }
        .id(Field.password)
        if let notice = form.notice {
            Label(notice, systemImage: "checkmark.circle")
                .font(.callout)
                .foregroundStyle(.green)
                .fixedSize(horizontal: false, vertical: true)
                .onAppear { AccessibilityNotification.Announcement(notice).post() }
        }
        FormMessageView(message: form.message)
        PrimaryButton(title: text(.logIn), isEnabled: form.canSubmit, isWorking: form.isSubmitting) { submit() }
        if form.offersPasskey {
            Button {
                focus = nil
                Task { await form.logInWithPasskey() }
            } label: {
                Label(text(.logInWithPasskey), systemImage: "person.badge.key")
                    .frame(maxWidth: .infinity)
            }
            .buttonStyle(.bordered)
            .controlSize(.large)
            .disabled(!form.canUsePasskey)
        }
        if form.offersAppleSignIn {
            SignInWithAppleButton(.signIn) { request in
                request.configure(hashedNonce: form.startAppleSignIn())
            } onCompletion: { result in
                let answer = AppleIDAuthorization.result(result)
                Task { await form.finishAppleSignIn(answer) }
            }
            .signInWithAppleButtonStyle(colorScheme == .dark ? .white : .black)
            .frame(height: 48)
            .disabled(!form.canUseAppleSignIn)
        }
        Button(text(.forgotPassword)) {
            navigator.push(.passwordReset(email: form.verificationEmail ?? ""))
        }
        Button(text(.noAccount)) {
            navigator.follow(AccountNavigation.signUpEntry)
        }
    }

    private func submit() {
        guard form.canSubmit else { return }
        focus = nil
        Task {
            await form.submit()
            navigator.follow(
                AccountNavigation.afterLogIn(needsEmailVerification: form.needsEmailVerification, email: form.verificationEmail))
        }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, form.language)
    }
}

/// What happened at launch, above the login form, with a retry when reading again may help.
struct LaunchNotice: View {
    let message: String
    let retryTitle: String?
    let retry: () -> Void

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            Label(message, systemImage: "exclamationmark.triangle")
                .foregroundStyle(.primary)
                .fixedSize(horizontal: false, vertical: true)
            if let retryTitle {
                Button(retryTitle, action: retry)
                    .buttonStyle(.bordered)
            }
        }
        .padding()
        .frame(maxWidth: .infinity, alignment: .leading)
        .background(.orange.opacity(0.15), in: RoundedRectangle(cornerRadius: 10))
        .accessibilityElement(children: .contain)
        .announcesNew([message])
        .onAppear { AccessibilityNotification.Announcement(message).post() }
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Login") { AccountPreviews.login() }
#Preview("로그인") { AccountPreviews.login(language: .ko) }
#Preview("Login, passkey and Apple") { AccountPreviews.loginWithMethods() }
#Preview("로그인, 패스키와 Apple") { AccountPreviews.loginWithMethods(language: .ko) }
#endif
#endif
