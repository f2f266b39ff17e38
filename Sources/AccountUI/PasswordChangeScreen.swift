#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// A new password over ``PasswordChangeForm``, in a sheet above the profile: the step-up proof
/// (the current password, with the second factor while it is on; a passkey or Apple for accounts
/// that prove themselves so), then the new password, checked as it is typed; once changed, says so
/// until Done.
struct PasswordChangeScreen: View {
    @State private var form: PasswordChangeForm
    @FocusState private var newPasswordFocused: Bool?
    @Environment(\.dismiss) private var dismiss

    /// - Parameters:
    ///   - session: the signed-in session.
    ///   - methods: the ways to log in the app offers, which may prove the account.
    @MainActor init(session: SessionManager, methods: SignInMethods = []) {
        _form = State(initialValue: PasswordChangeForm(session: session, apple: methods.appleAuthorizer, passkeys: methods.passkeyAuthorizer))
    }

    var body: some View {
        if let notice = form.notice {
            FormColumn(focus: Optional<Bool>.none) {
                NoticeLabel(notice: notice)
                PrimaryButton(title: text(.done), isEnabled: true, isWorking: false) { dismiss() }
            }
            .navigationTitle(text(.changePassword))
        } else {
            StepUpSheet(
                title: .changePassword, proof: form.proof, passwordTitle: .currentPassword, action: .changePassword,
                canSubmit: form.canSubmit, isFinished: form.isSignedOut, submit: form.submit
            ) {
                EmptyView()
            } extra: {
                SignupTextFieldView(
                    kind: .newPassword, title: text(.newPassword), text: $form.newPassword, field: true, focus: $newPasswordFocused,
                    errors: form.errors(for: .newPassword), submitLabel: .done
                ) {
                    newPasswordFocused = nil
                    Task { await form.submit() }
                }
            }
        }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, form.language)
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Change password") { AccountPreviews.passwordChange() }
#Preview("비밀번호 변경") { AccountPreviews.passwordChange(language: .ko) }
#endif
#endif
