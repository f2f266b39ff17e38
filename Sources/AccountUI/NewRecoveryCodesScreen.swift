#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// A new set of recovery codes over ``RecoveryCodesFlow``, in a sheet above the profile: the
/// password and the authenticator app's code (the current codes stop working, it says first),
/// then the new codes, which stay until "I saved them" is on and Done is pressed (the sheet
/// cannot be swiped away meanwhile).
struct NewRecoveryCodesScreen: View {
    typealias Field = RecoveryCodesFlow.Field

    @State private var flow: RecoveryCodesFlow
    @FocusState private var focus: Field?

    /// - Parameter session: the signed-in session.
    @MainActor init(session: SessionManager) {
        _flow = State(initialValue: RecoveryCodesFlow(session: session))
    }

    var body: some View {
        FormColumn(focus: focus) {
            steps
            FormMessageView(message: flow.message)
        }
        .navigationTitle(text(.recoveryCodes))
        .sheetFlow(cancelTitle: text(.cancel), canCancel: !showsCodes, isFinished: flow.step == .done || flow.isSignedOut)
        .onAppear { focus = .password }
    }

    @ViewBuilder private var steps: some View {
        switch flow.step {
        case .confirm:
            Label(text(.replacesRecoveryCodes), systemImage: "exclamationmark.triangle")
                .fixedSize(horizontal: false, vertical: true)
            SignupTextFieldView(
                kind: .password, title: text(.password), text: $flow.password, field: Field.password, focus: $focus,
                errors: flow.errors(for: .password)
            ) { focus = .code }
            .id(Field.password)
            Text(flow.instructions)
                .foregroundStyle(.secondary)
                .fixedSize(horizontal: false, vertical: true)
            SignupTextFieldView(
                kind: .code, title: text(.authenticatorCode), text: $flow.code, field: Field.code, focus: $focus,
                errors: flow.errors(for: .code), submitLabel: .done, keyboardDoneTitle: text(.done)
            ) { submit() }
            .id(Field.code)
            PrimaryButton(title: text(.newRecoveryCodes), isEnabled: flow.canSubmit, isWorking: flow.isWorking) { submit() }
        case .codes(let codes):
            RecoveryCodesView(flow: flow, codes: codes)
        case .done:
            EmptyView()
        }
    }

    private var showsCodes: Bool {
        if case .codes = flow.step { return true }
        return false
    }

    /// Sends the password and code; what is missing gets the model's message.
    private func submit() {
        guard !flow.isWorking else { return }
        focus = nil
        Task { await flow.submit() }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, flow.language)
    }
}

#if targetEnvironment(simulator) || os(macOS)
#Preview("New recovery codes") { AccountPreviews.newRecoveryCodes() }
#Preview("새 복구 코드") { AccountPreviews.newRecoveryCodes(language: .ko) }
#endif
#endif
