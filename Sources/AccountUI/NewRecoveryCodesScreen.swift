#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// A new set of recovery codes over ``RecoveryCodesFlow``, in a sheet above the profile: the
/// step-up proof with the authenticator app's code (the current codes stop working, it says first),
/// then the new codes, which stay until "I saved them" is on and Done is pressed (the sheet
/// cannot be swiped away meanwhile).
struct NewRecoveryCodesScreen: View {
    typealias Field = StepUpForm.Field

    @State private var flow: RecoveryCodesFlow
    @FocusState private var focus: Field?

    /// - Parameters:
    ///   - session: the signed-in session.
    ///   - methods: the ways to log in the app offers, which may prove the account.
    @MainActor init(session: SessionManager, methods: SignInMethods = []) {
        _flow = State(initialValue: RecoveryCodesFlow(session: session, apple: methods.appleAuthorizer, passkeys: methods.passkeyAuthorizer))
    }

    var body: some View {
        FormColumn(focus: focus) {
            steps
            FormMessageView(message: flow.message)
        }
        .navigationTitle(text(.recoveryCodes))
        .sheetFlow(cancelTitle: text(.cancel), canCancel: !showsCodes, isFinished: flow.step == .done || flow.isSignedOut)
    }

    @ViewBuilder private var steps: some View {
        switch flow.step {
        case .confirm:
            Label(text(.replacesRecoveryCodes), systemImage: "exclamationmark.triangle")
                .fixedSize(horizontal: false, vertical: true)
            StepUpFields(form: flow.proof, focus: $focus, onSubmit: submit)
            PrimaryButton(
                title: text(StepUpFields.title(.newRecoveryCodes, for: flow.proof)), isEnabled: flow.canSubmit, isWorking: flow.isWorking
            ) { submit() }
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

    /// Sends the proof; what is missing gets the model's message.
    private func submit() {
        guard !flow.isWorking else { return }
        focus = nil
        Task { await flow.submit() }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, flow.language)
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("New recovery codes") { AccountPreviews.newRecoveryCodes() }
#Preview("새 복구 코드") { AccountPreviews.newRecoveryCodes(language: .ko) }
#endif
#endif
