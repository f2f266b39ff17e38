#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The login screen over ``LoginForm``: nickname or email and password, with links to sign-up
/// (email first) and password reset. A right password for an unverified address leads to the
/// code screen; coming back, its "verify your email" message is gone. A right password for an
/// account with a second factor leads to its code step here, in place of the password
/// (``SecondFactorStepView``); when that step is over, the password is back with the reason. What
/// ``AccountLaunch`` has to say (a store that failed, a session that ended with a reinstall) shows
/// above, with a retry.
struct LoginScreen: View {
    typealias Field = LoginForm.Field

    @State private var form: LoginForm
    let launch: AccountLaunch
    @FocusState private var focus: Field?
    @Environment(AccountNavigator.self) private var navigator

    /// - Parameters:
    ///   - session: the session the login starts.
    ///   - launch: the root's launch state, for its message and retry.
    @MainActor init(session: SessionManager, launch: AccountLaunch) {
        _form = State(initialValue: LoginForm(session: session))
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
            } else {
                passwordStep
            }
        }
        .navigationTitle(text(form.secondFactor == nil ? .logIn : .twoStepVerification))
        .onAppear { form.reappeared() }
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
        FormMessageView(message: form.message)
        PrimaryButton(title: text(.logIn), isEnabled: form.canSubmit, isWorking: form.isSubmitting) { submit() }
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

#if targetEnvironment(simulator) || os(macOS)
#Preview("Login") { AccountPreviews.login() }
#Preview("로그인") { AccountPreviews.login(language: .ko) }
#endif
#endif
