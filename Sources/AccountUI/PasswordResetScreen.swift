#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The password reset screen over ``PasswordResetForm``: the address, then the mailed code and
/// a new password; when done, back to login. A complete code moves on to the new password by
/// itself (a number pad has no return key; the keyboard's "Next" does it too). At the code step
/// "Use another address" goes back to the address and "Send a new code" waits for its countdown,
/// re-read every second; so does the send button.
struct PasswordResetScreen: View {
    typealias Field = PasswordResetForm.Field

    @State private var form: PasswordResetForm
    @FocusState private var focus: Field?
    @Environment(AccountNavigator.self) private var navigator

    /// - Parameters:
    ///   - session: the app's session.
    ///   - email: the address, when the login screen knows it.
    @MainActor init(session: SessionManager, email: String = "") {
        _form = State(initialValue: PasswordResetForm(session: session, email: email))
    }

    var body: some View {
        FormColumn(focus: focus) {
            steps
            FormMessageView(message: form.message)
        }
        .navigationTitle(text(.resetPassword))
        .onChange(of: form.code) { _, _ in
            if form.isCodeComplete, focus == .code { focus = .newPassword }
        }
    }

    @ViewBuilder private var steps: some View {
        switch form.phase {
        case .enterEmail:
            SignupTextFieldView(
                kind: .email, title: text(.email), text: $form.email, field: Field.email, focus: $focus,
                errors: form.errors(for: .email), submitLabel: .send
            ) { requestCode() }
            .id(Field.email)
            TimelineView(.periodic(from: .now, by: 1)) { context in
                let seconds = form.resendCountdown(at: context.date)
                PrimaryButton(
                    title: seconds > 0 ? AccountUIStrings.resendIn(seconds, form.language) : text(.sendCode),
                    isEnabled: form.canRequestCode(at: context.date), isWorking: form.isWorking
                ) { requestCode() }
            }
        case .codeSent:
            Text(AccountUIStrings.codeSent(to: form.email, form.language))
                .foregroundStyle(.secondary)
            SignupTextFieldView(
                kind: .code, title: text(.code), text: $form.code, field: Field.code, focus: $focus,
                errors: form.errors(for: .code), keyboardDoneTitle: text(.next)
            ) { focus = .newPassword }
            .id(Field.code)
            SignupTextFieldView(
                kind: .newPassword, title: text(.newPassword), text: $form.newPassword,
                field: Field.newPassword, focus: $focus, errors: form.errors(for: .newPassword), submitLabel: .done
            ) { confirm() }
            .id(Field.newPassword)
            PrimaryButton(title: text(.setPassword), isEnabled: form.canConfirm, isWorking: form.isWorking) {
                confirm()
            }
            HStack {
                Button(text(.changeEmail)) {
                    form.changeEmail()
                    focus = .email
                }
                Spacer()
                resendButton
            }
        case .done:
            Label(text(.passwordChanged), systemImage: "checkmark.circle")
            PrimaryButton(title: text(.logIn), isEnabled: true, isWorking: false) { navigator.popToRoot() }
        }
    }

    /// "Resend in 42 s", then "Send a new code", re-read every second.
    private var resendButton: some View {
        TimelineView(.periodic(from: .now, by: 1)) { context in
            let seconds = form.resendCountdown(at: context.date)
            Button(seconds > 0 ? AccountUIStrings.resendIn(seconds, form.language) : text(.resend)) { requestCode() }
                .disabled(!form.canRequestCode(at: context.date))
        }
    }

    private func requestCode() {
        focus = nil
        Task {
            await form.requestCode()
            if form.phase == .codeSent { focus = .code }
        }
    }

    private func confirm() {
        guard form.canConfirm else { return }
        focus = nil
        Task { await form.confirm() }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, form.language)
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Reset password") { AccountPreviews.passwordReset() }
#Preview("비밀번호 재설정") { AccountPreviews.passwordReset(language: .ko) }
#endif
#endif
