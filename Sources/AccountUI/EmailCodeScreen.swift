#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The email and code screen over ``EmailVerificationFlow``: the address, then the code once it
/// is sent. The app's sign-up starts here (purpose `.signup`, then the details with the address
/// fixed); verifying an existing account's address uses it too (`.verify`).
///
/// The code is sent by itself at its last digit (a number pad has no return key; the keyboard's
/// "Done" sends it too). "Use another address" and the resend countdown are always at hand; once
/// the code is spent, the main button asks for a new one. Leaving the app's sign-up with an address
/// typed or a code sent asks first (``EmailVerificationFlow/leavingLosesInput``); sign-up details
/// typed before the address is proven again pass through here on their way back to the details.
/// SwiftUI keeps the focused field above the keyboard, scrolled into view on focus; on Mac
/// Catalyst the main action sits in a bottom bar.
struct EmailCodeScreen: View {
    typealias Field = EmailVerificationFlow.Field

    @State private var flow: EmailVerificationFlow
    @FocusState private var focus: Field?
    @State private var asksToLeave = false
    @Environment(AccountNavigator.self) private var navigator

    /// - Parameters:
    ///   - session: the app's session, which a `.verify` code signs in when it completes a sign-up.
    ///   - email: the address, when known.
    ///   - purpose: `.signup` to prove an address first, `.verify` for a sign-up or account waiting for its code.
    ///   - codeExpiresIn: the lifetime of a code the server mailed already (after a details-first
    ///     sign-up): start at the code; `nil` to start at the address.
    @MainActor init(session: SessionManager, email: String, purpose: CodePurpose, codeExpiresIn: Int?) {
        let flow = EmailVerificationFlow(session: session, purpose: purpose, email: email)
        if let codeExpiresIn { flow.codeWasSent(to: email, expiresIn: codeExpiresIn) }
        _flow = State(initialValue: flow)
    }

    var body: some View {
        FormColumn(focus: focus) {
            Text(text(flow.purpose == .signup ? .signUpEmailHint : .verifyEmailHint))
                .font(.body)
                .foregroundStyle(.secondary)
            if isCodeStep {
                codeStep
            } else {
                SignupTextFieldView(
                    kind: .email, title: text(.email), text: $flow.email, field: Field.email, focus: $focus,
                    errors: flow.errors(for: .email), submitLabel: .send
                ) { perform() }
                .id(Field.email)
            }
            FormMessageView(message: flow.message)
            #if !targetEnvironment(macCatalyst)
            primaryAction
            #endif
        }
        #if targetEnvironment(macCatalyst)
        .safeAreaInset(edge: .bottom) {
            primaryAction
                .padding()
                .accountColumn()
                .background(.bar)
        }
        #endif
        .navigationTitle(text(flow.purpose == .signup ? .signUp : .emailCodeTitle))
        .navigationBarBackButtonHidden(flow.leavingLosesInput)
        .toolbar {
            ToolbarItem(placement: .cancellationAction) {
                if flow.leavingLosesInput {
                    Button(text(.cancel)) { asksToLeave = true }
                }
            }
        }
        .asksBeforeLeavingSignUp($asksToLeave, language: flow.language, navigator: navigator)
        .task {
            await flow.loadPolicy()
        }
        .onAppear {
            // Back from the details (their proof ran out): start again at the address, keeping
            // what the details held for when the address is proven again.
            flow.reappeared()
            if let draft = navigator.signUpDraft {
                navigator.signUpDraft = nil
                flow.signUpDraft = draft
            }
            focus = isCodeStep ? .code : .email
        }
        .onChange(of: flow.code) { _, _ in
            Task { await flow.verifyIfComplete() }
        }
        .onChange(of: flow.phase) { _, phase in
            if case .codeSent = phase { focus = .code }
            if case .verified = phase {
                switch flow.purpose {
                case .signup:
                    navigator.signUpDraft = flow.signUpDraft
                    flow.signUpDraft = nil
                case .verify:
                    navigator.emailWasVerified = true
                }
            }
            navigator.follow(AccountNavigation.afterVerification(phase, purpose: flow.purpose, email: flow.email))
        }
    }

    /// The address the code went to, the code, another address, and the resend countdown.
    @ViewBuilder private var codeStep: some View {
        Text(AccountUIStrings.codeSent(to: flow.email, flow.language))
            .font(.callout)
        SignupTextFieldView(
            kind: .code, title: text(.code), text: $flow.code, field: Field.code, focus: $focus,
            errors: flow.errors(for: .code), submitLabel: .done, keyboardDoneTitle: text(.done)
        ) { perform() }
        .disabled(flow.needsNewCode)
        .id(Field.code)
        HStack {
            Button(text(.changeEmail)) {
                flow.changeEmail()
                focus = .email
            }
            Spacer()
            if !flow.needsNewCode { resendButton }
        }
    }

    private var isCodeStep: Bool {
        if case .codeSent = flow.phase { return true }
        return false
    }

    /// The flow's main action: send, verify, or (the code spent) a new code after the countdown.
    private var primaryAction: some View {
        TimelineView(.periodic(from: .now, by: 1)) { context in
            let seconds = flow.resendCountdown(at: context.date)
            let title: String =
                switch flow.primaryAction {
                case .verify: text(.verify)
                case .sendCode: seconds > 0 ? AccountUIStrings.resendIn(seconds, flow.language) : text(.sendCode)
                case .sendNewCode: seconds > 0 ? AccountUIStrings.resendIn(seconds, flow.language) : text(.resend)
                }
            PrimaryButton(
                title: title, isEnabled: flow.canPerformPrimaryAction(at: context.date), isWorking: flow.isWorking
            ) { perform() }
        }
    }

    /// "Resend in 42 s", then "Send a new code", re-read every second.
    private var resendButton: some View {
        TimelineView(.periodic(from: .now, by: 1)) { context in
            let seconds = flow.resendCountdown(at: context.date)
            let title = seconds > 0 ? AccountUIStrings.resendIn(seconds, flow.language) : text(.resend)
            Button(title) {
                Task { await flow.sendCode() }
            }
            .disabled(seconds > 0 || flow.isWorking)
        }
    }

    private func perform() {
        Task { await flow.performPrimaryAction() }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, flow.language)
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Sign-up: address") { AccountPreviews.emailCode(purpose: .signup, codeSent: false) }
#Preview("Verify: code sent") { AccountPreviews.emailCode(purpose: .verify, codeSent: true) }
#Preview("회원가입: 이메일") { AccountPreviews.emailCode(purpose: .signup, codeSent: false, language: .ko) }
#Preview("이메일 인증") { AccountPreviews.emailCode(purpose: .verify, codeSent: true, language: .ko) }
#endif
#endif
