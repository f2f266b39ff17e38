#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The login's second step over ``SecondFactorForm``, shown by the login screen in place of the
/// password once the password was right: the authenticator app's code, sent by itself at its
/// sixth digit (a number pad has no return key; its "Done" sends it too), or "use a recovery
/// code"; the model's messages (wrong code and the tries left, the step over); and the way back
/// to the password.
///
/// Signing in needs nothing from here: the session's new state shows the profile. When the step
/// is over (5 minutes, 5 wrong codes) the login form takes over again with the reason.
struct SecondFactorStepView: View {
    typealias Field = SecondFactorForm.Field

    @Bindable var step: SecondFactorForm
    /// Back to the password (``LoginForm/backToPassword()``).
    let back: () -> Void
    @FocusState private var focus: Field?

    var body: some View {
        VStack(alignment: .leading, spacing: 20) {
            Text(step.instructions)
                .foregroundStyle(.secondary)
                .fixedSize(horizontal: false, vertical: true)
            SecondFactorInput(
                method: step.method, code: $step.code, recoveryCode: $step.recoveryCode, codeField: Field.code,
                recoveryCodeField: Field.recoveryCode, focus: $focus, errors: step.errors(for: field),
                offersRecoveryCode: step.offersRecoveryCode, language: step.language,
                switchMethod: { step.method = $0 }, onSubmit: submit)
            FormMessageView(message: step.message)
            PrimaryButton(title: text(.verify), isEnabled: step.canSubmit, isWorking: step.isSubmitting, action: submit)
            Button(text(.backToPassword), action: back)
        }
        .onAppear { focus = field }
        .onChange(of: step.code) { _, _ in
            Task { await step.submitIfComplete() }
        }
        .onChange(of: step.phase) { _, phase in
            // Refused: back to the field, to correct it.
            if phase == .entering { focus = field }
        }
    }

    /// The field of the method in use.
    private var field: Field { step.method == .authenticatorCode ? .code : .recoveryCode }

    /// Sends the factor; an incomplete one gets the model's message saying what it needs.
    private func submit() {
        guard !step.isSubmitting else { return }
        focus = nil
        Task { await step.submit() }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, step.language)
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Second step") { AccountPreviews.secondFactorStep() }
#Preview("2단계 인증") { AccountPreviews.secondFactorStep(language: .ko) }
#endif
#endif
