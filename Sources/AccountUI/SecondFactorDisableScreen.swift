#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// Turning off the second factor over ``SecondFactorDisableForm``, in a sheet above the profile:
/// what it means, the password, and the authenticator app's code or (its app lost) a recovery
/// code; closes once the factor is off.
struct SecondFactorDisableScreen: View {
    typealias Field = SecondFactorDisableForm.Field

    @State private var form: SecondFactorDisableForm
    @FocusState private var focus: Field?

    /// - Parameter session: the signed-in session.
    @MainActor init(session: SessionManager) {
        _form = State(initialValue: SecondFactorDisableForm(session: session))
    }

    var body: some View {
        FormColumn(focus: focus) {
            Text(text(.turnOffHint))
                .foregroundStyle(.secondary)
                .fixedSize(horizontal: false, vertical: true)
            SignupTextFieldView(
                kind: .password, title: text(.password), text: $form.password, field: Field.password, focus: $focus,
                errors: form.errors(for: .password)
            ) { focus = form.method == .authenticatorCode ? .code : .recoveryCode }
            .id(Field.password)
            SecondFactorInput(
                method: form.method, code: $form.code, recoveryCode: $form.recoveryCode, codeField: Field.code,
                recoveryCodeField: Field.recoveryCode, focus: $focus,
                errors: form.errors(for: form.method == .authenticatorCode ? .code : .recoveryCode),
                offersRecoveryCode: true, language: form.language, submitLabel: .done,
                switchMethod: { form.method = $0 }, onSubmit: submit)
            FormMessageView(message: form.message)
            PrimaryButton(title: text(.turnOff), isEnabled: form.canSubmit, isWorking: form.isWorking, action: submit)
        }
        .navigationTitle(text(.twoStepVerification))
        .sheetFlow(cancelTitle: text(.cancel), canCancel: true, isFinished: form.isDisabled || form.isSignedOut)
        .onAppear { focus = .password }
    }

    /// Sends the password and the factor; what is missing gets the model's message.
    private func submit() {
        guard !form.isWorking else { return }
        focus = nil
        Task { await form.submit() }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, form.language)
    }
}

#if targetEnvironment(simulator) || os(macOS)
#Preview("Turn off two-step verification") { AccountPreviews.disableSecondFactor() }
#Preview("2단계 인증 끄기") { AccountPreviews.disableSecondFactor(language: .ko) }
#endif
#endif
