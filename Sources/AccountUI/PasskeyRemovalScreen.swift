#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// Removing a passkey over ``PasskeyRemovalForm``, in a sheet above the profile: what it means,
/// the password (or, for an account made with Apple, Apple's sheet), the second factor while it
/// is on; closes once the passkey is gone.
struct PasskeyRemovalScreen: View {
    typealias Field = PasskeyRemovalForm.Field

    @Bindable var form: PasskeyRemovalForm
    @FocusState private var focus: Field?

    var body: some View {
        FormColumn(focus: focus) {
            Label(form.passkey.name, systemImage: "person.badge.key")
                .font(.headline)
            Text(form.instructions)
                .foregroundStyle(.secondary)
                .fixedSize(horizontal: false, vertical: true)
            if !form.provesWithoutPassword {
                SignupTextFieldView(
                    kind: .password, title: text(.password), text: $form.password, field: Field.password, focus: $focus,
                    errors: form.errors(for: .password), submitLabel: form.asksSecondFactor ? .next : .done
                ) { if form.asksSecondFactor { focus = codeField } else { submit() } }
                .id(Field.password)
            }
            if form.asksSecondFactor {
                SecondFactorInput(
                    method: form.method, code: $form.code, recoveryCode: $form.recoveryCode, codeField: Field.code,
                    recoveryCodeField: Field.recoveryCode, focus: $focus, errors: form.errors(for: codeField),
                    offersRecoveryCode: true, language: form.language, submitLabel: .done,
                    switchMethod: { form.method = $0 }, onSubmit: submit)
            }
            FormMessageView(message: form.message)
            PrimaryButton(
                title: text(form.provesWithApple ? .confirmWithApple : .remove), isEnabled: form.canSubmit, isWorking: form.isWorking,
                action: submit)
        }
        .navigationTitle(text(.removePasskey))
        .sheetFlow(cancelTitle: text(.cancel), canCancel: true, isFinished: form.isRemoved || form.isSignedOut)
        .onAppear { focus = form.provesWithoutPassword ? (form.asksSecondFactor ? codeField : nil) : .password }
    }

    /// The field of the second factor's method in use.
    private var codeField: Field { form.method == .authenticatorCode ? .code : .recoveryCode }

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
#Preview("Remove passkey") { AccountPreviews.passkeyRemoval() }
#Preview("패스키 삭제") { AccountPreviews.passkeyRemoval(language: .ko) }
#endif
#endif
