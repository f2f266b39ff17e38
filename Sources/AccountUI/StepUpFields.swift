#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The step-up proof over ``StepUpForm``, the one block every screen that changes how the account
/// signs in shows: what it asks, the password (or the current password) while it asks one, the
/// second factor's field and its switch while it asks one, "use a passkey instead" for an account
/// that holds one, and what the server refused. It reads what the account holds when it appears.
///
/// The screen keeps the action: `onSubmit` is the return key of the last field, and its button's
/// title comes from ``title(_:for:)`` (Apple's and the passkey's sheets say so).
struct StepUpFields: View {
    typealias Field = StepUpForm.Field

    @Bindable var form: StepUpForm
    let focus: FocusState<Field?>.Binding
    /// The label of the password field ("Current password" for a password change).
    var passwordTitle: AccountUIStrings.Key = .password
    /// The last field's return key.
    let onSubmit: () -> Void

    var body: some View {
        VStack(alignment: .leading, spacing: 16) {
            Text(form.instructions)
                .foregroundStyle(.secondary)
                .fixedSize(horizontal: false, vertical: true)
            if form.asksPassword {
                SignupTextFieldView(
                    kind: .password, title: text(passwordTitle), text: $form.password, field: Field.password, focus: focus,
                    errors: form.errors(for: .password), submitLabel: form.asksSecondFactor ? .next : .done
                ) { if form.asksSecondFactor { focus.wrappedValue = codeField } else { onSubmit() } }
                .id(Field.password)
            }
            if form.asksSecondFactor {
                SecondFactorInput(
                    method: form.method, code: $form.code, recoveryCode: $form.recoveryCode, codeField: Field.code,
                    recoveryCodeField: Field.recoveryCode, focus: focus, errors: form.errors(for: codeField),
                    offersRecoveryCode: form.offersRecoveryCode, language: form.language, submitLabel: .done,
                    switchMethod: { form.method = $0 }, onSubmit: onSubmit)
            }
            if form.offersPasskey {
                Button(text(switchTitle)) {
                    form.usePasskey(!form.usesPasskey)
                    focus.wrappedValue = firstField
                }
                .disabled(form.isWorking)
            }
            FormMessageView(message: form.message)
        }
        .onAppear { focus.wrappedValue = firstField }
        .task { await form.load() }
    }

    /// The title of the screen's button for `action`: "Confirm with Apple" or "Confirm with a
    /// passkey" when the proof opens that sheet first.
    static func title(_ action: AccountUIStrings.Key, for form: StepUpForm) -> AccountUIStrings.Key {
        switch form.identity {
        case .password: action
        case .apple: .confirmWithApple
        case .passkey: .confirmWithPasskey
        }
    }

    /// The field that takes focus first: the password, else the second factor's, else none (a sheet proves it).
    private var firstField: Field? {
        form.asksPassword ? .password : form.asksSecondFactor ? codeField : nil
    }

    /// The field of the second factor's method in use.
    private var codeField: Field { form.method == .authenticatorCode ? .code : .recoveryCode }

    /// "Use a passkey instead", or back to what the account proves itself with otherwise.
    private var switchTitle: AccountUIStrings.Key {
        guard form.usesPasskey else { return .usePasskeyInstead }
        return form.requirement.identity == .apple ? .useAppleInstead : .usePasswordInstead
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, form.language)
    }
}

/// A change of how the account signs in, in a sheet: its title, what it means (`header`), the
/// proof (``StepUpFields``), anything else it asks (`extra`), and its button; closes once
/// `isFinished`. The screens that add or remove a passkey, link or unlink Apple, turn the second
/// factor off, change the password and delete the account are this, each over its own model.
struct StepUpSheet<Header: View, Extra: View>: View {
    typealias Field = StepUpForm.Field

    let title: AccountUIStrings.Key
    let proof: StepUpForm
    var passwordTitle: AccountUIStrings.Key = .password
    /// The button's title (when the proof opens no sheet first).
    let action: AccountUIStrings.Key
    let canSubmit: Bool
    let isFinished: Bool
    /// Sends the change.
    let submit: @MainActor () async -> Void
    @ViewBuilder let header: Header
    @ViewBuilder let extra: Extra
    @FocusState private var focus: Field?

    var body: some View {
        FormColumn(focus: focus) {
            header
            StepUpFields(form: proof, focus: $focus, passwordTitle: passwordTitle, onSubmit: send)
            extra
            PrimaryButton(
                title: text(StepUpFields.title(action, for: proof)), isEnabled: canSubmit, isWorking: proof.isWorking, action: send)
        }
        .navigationTitle(text(title))
        .sheetFlow(cancelTitle: text(.cancel), canCancel: !proof.isWorking, isFinished: isFinished)
    }

    private func send() {
        guard !proof.isWorking else { return }
        focus = nil
        Task { await submit() }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, proof.language)
    }
}

extension StepUpSheet where Extra == EmptyView {
    /// A sheet that asks nothing beside the proof.
    init(
        title: AccountUIStrings.Key, proof: StepUpForm, action: AccountUIStrings.Key, canSubmit: Bool, isFinished: Bool,
        submit: @escaping @MainActor () async -> Void, @ViewBuilder header: () -> Header
    ) {
        self.init(
            title: title, proof: proof, action: action, canSubmit: canSubmit, isFinished: isFinished, submit: submit, header: header,
            extra: { EmptyView() })
    }
}
#endif
