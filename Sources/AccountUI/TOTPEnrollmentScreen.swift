#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// Turning on the second factor over ``TOTPEnrollmentFlow``, in a sheet above the profile: the
/// step-up proof (``StepUpFields``); then the QR code of the `otpauth://` URI with the setup key beside it to copy, "open
/// in authenticator app" (the phone that shows the codes cannot scan its own screen), and the
/// app's first code, sent by itself at its sixth digit; then the recovery codes, which stay until
/// "I saved them" is on and Done is pressed (the sheet cannot be swiped away meanwhile).
struct TOTPEnrollmentScreen: View {
    typealias Field = TOTPEnrollmentFlow.Field

    @State private var flow: TOTPEnrollmentFlow
    @FocusState private var focus: Field?
    @State private var noAuthenticatorApp = false
    @Environment(\.openURL) private var openURL

    /// - Parameters:
    ///   - session: the signed-in session.
    ///   - methods: the ways to log in the app offers, which may prove the account.
    @MainActor init(session: SessionManager, methods: SignInMethods = []) {
        _flow = State(initialValue: TOTPEnrollmentFlow(session: session, apple: methods.appleAuthorizer, passkeys: methods.passkeyAuthorizer))
    }

    var body: some View {
        FormColumn(focus: focus) {
            steps
            FormMessageView(message: flow.message)
        }
        .navigationTitle(text(.setUpAuthenticator))
        .sheetFlow(cancelTitle: text(.cancel), canCancel: !showsRecoveryCodes, isFinished: flow.step == .done || flow.isSignedOut)
        .onChange(of: flow.code) { _, _ in
            Task { await flow.confirmIfComplete() }
        }
        .onChange(of: flow.step) { _, step in
            // No keyboard over the QR code and the recovery codes: the code field waits for a tap.
            focus = step == .proof && flow.proof.asksPassword ? .password : nil
            // VoiceOver hears what the new step asks.
            if step != .done { AccessibilityNotification.Announcement(flow.instructions).post() }
        }
    }

    @ViewBuilder private var steps: some View {
        switch flow.step {
        case .proof:
            StepUpFields(form: flow.proof, focus: $focus, onSubmit: start)
            PrimaryButton(
                title: text(StepUpFields.title(.continueAction, for: flow.proof)), isEnabled: flow.canStart, isWorking: flow.isWorking
            ) { start() }
        case .scan(let enrollment):
            Text(flow.instructions)
                .fixedSize(horizontal: false, vertical: true)
            AuthenticatorKeyView(enrollment: enrollment, language: flow.language)
            if let url = flow.otpauthURL {
                openInAuthenticator(url)
            }
            SignupTextFieldView(
                kind: .code, title: text(.authenticatorCode), text: $flow.code, field: Field.code, focus: $focus,
                errors: flow.errors(for: .code), submitLabel: .done, keyboardDoneTitle: text(.done)
            ) { confirm() }
            .id(Field.code)
            PrimaryButton(title: text(.turnOn), isEnabled: flow.canConfirm, isWorking: flow.isWorking) { confirm() }
        case .recoveryCodes(let codes):
            RecoveryCodesView(flow: flow, codes: codes)
        case .done:
            EmptyView()
        }
    }

    /// Opens the `otpauth://` URL in the authenticator app on this device; says so when none opens it.
    private func openInAuthenticator(_ url: URL) -> some View {
        VStack(alignment: .leading, spacing: 6) {
            Button {
                openURL(url) { accepted in noAuthenticatorApp = !accepted }
            } label: {
                Label(text(.openInAuthenticator), systemImage: "arrow.up.forward.app")
            }
            if noAuthenticatorApp {
                Text(text(.noAuthenticatorApp))
                    .font(.footnote)
                    .foregroundStyle(.secondary)
                    .fixedSize(horizontal: false, vertical: true)
            }
        }
        .announcesNew(noAuthenticatorApp ? [text(.noAuthenticatorApp)] : [])
    }

    private var showsRecoveryCodes: Bool {
        if case .recoveryCodes = flow.step { return true }
        return false
    }

    private func start() {
        guard !flow.isWorking else { return }
        focus = nil
        Task { await flow.start() }
    }

    /// Sends the code; an incomplete one gets the model's message saying what it needs.
    private func confirm() {
        guard !flow.isWorking else { return }
        Task { await flow.confirm() }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, flow.language)
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Turn on two-step verification") { AccountPreviews.enrollment() }
#Preview("2단계 인증 켜기") { AccountPreviews.enrollment(language: .ko) }
#endif
#endif
