#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The email and code screen over ``EmailVerificationFlow``: the address, then the code field
/// once a code is sent, with the resend countdown.
///
/// The focused field scrolls above the keyboard (not on Mac Catalyst, which has none), and the
/// layout ignores the keyboard safe area and pads by the keyboard's height instead, so nothing
/// jumps when it shows. On Mac Catalyst the main action sits in a bottom bar.
public struct EmailCodeScreen: View {
    enum Field: Hashable {
        case email
        case code
    }

    @State private var flow: EmailVerificationFlow
    @FocusState private var focus: Field?
    @State private var keyboardHeight: CGFloat = 0
    @Environment(AccountNavigator.self) private var navigator

    /// - Parameters:
    ///   - client: the API client.
    ///   - email: the address, when known.
    ///   - purpose: `.verify` for an existing account, `.signup` to prove an address first.
    ///   - codeSent: the server mailed a code already (after a sign-up): start at the code.
    @MainActor public init(client: AccountClient, email: String, purpose: CodePurpose, codeSent: Bool) {
        let flow = EmailVerificationFlow(client: client, purpose: purpose, email: email)
        if codeSent { flow.codeWasSent(to: email, expiresIn: AccountNavigation.assumedCodeLifetime) }
        _flow = State(initialValue: flow)
    }

    public var body: some View {
        ScrollViewReader { proxy in
            ScrollView {
                VStack(alignment: .leading, spacing: 20) {
                    Text(text(.verifyEmailHint))
                        .font(.body)
                        .foregroundStyle(.secondary)
                    SignupTextFieldView(
                        kind: .email, title: text(.email), text: $flow.email, field: Field.email, focus: $focus,
                        errors: flow.emailError.map { [$0] } ?? [], submitLabel: .send
                    ) { send() }
                    .disabled(isCodeStep)
                    .id(Field.email)
                    if isCodeStep {
                        SignupTextFieldView(
                            kind: .code, title: text(.code), text: $flow.code, field: Field.code, focus: $focus,
                            errors: flow.codeError.map { [$0] } ?? [], submitLabel: .done
                        ) { verify() }
                        .id(Field.code)
                        resendButton
                        Button(text(.changeEmail)) {
                            flow.changeEmail()
                            focus = .email
                        }
                        .accessibilityLabel(text(.changeEmail))
                    }
                    if let message = flow.message {
                        Text(message)
                            .font(.callout)
                            .foregroundStyle(.red)
                    }
                    #if !targetEnvironment(macCatalyst)
                    primaryAction
                    #endif
                }
                .padding()
                .padding(.bottom, keyboardHeight)
                .accountColumn()
            }
            .ignoresSafeArea(.keyboard, edges: .bottom)
            .onChange(of: focus) { _, field in
                scroll(proxy, to: field)
            }
            .onChange(of: keyboardHeight) { _, _ in
                scroll(proxy, to: focus)
            }
        }
        .observesKeyboardHeight($keyboardHeight)
        #if targetEnvironment(macCatalyst)
        .safeAreaInset(edge: .bottom) {
            primaryAction
                .padding()
                .accountColumn()
                .background(.bar)
        }
        #endif
        .navigationTitle(text(.emailCodeTitle))
        .task {
            await flow.loadPolicy()
        }
        .onChange(of: flow.step) { _, step in
            navigator.follow(AccountNavigation.afterVerification(step, purpose: flow.purpose, email: flow.email))
        }
    }

    private var isCodeStep: Bool {
        if case .codeSent = flow.step { return true }
        return false
    }

    /// Send while asking for the address, verify once the code field shows.
    @ViewBuilder private var primaryAction: some View {
        if isCodeStep {
            PrimaryButton(title: text(.verify), isEnabled: flow.canVerify, isWorking: flow.isWorking) { verify() }
        } else {
            TimelineView(.periodic(from: .now, by: 1)) { context in
                let seconds = flow.resendCountdown(at: context.date)
                PrimaryButton(
                    title: seconds > 0 ? AccountUIStrings.resendIn(seconds, flow.language) : text(.sendCode),
                    isEnabled: seconds == 0, isWorking: flow.isWorking
                ) { send() }
            }
        }
    }

    /// "Resend in 42 s", then "Send a new code", re-read every second.
    private var resendButton: some View {
        TimelineView(.periodic(from: .now, by: 1)) { context in
            let seconds = flow.resendCountdown(at: context.date)
            let title = seconds > 0 ? AccountUIStrings.resendIn(seconds, flow.language) : text(.resend)
            Button(title) { send() }
                .disabled(seconds > 0 || flow.isWorking)
                .accessibilityLabel(title)
        }
    }

    private func send() {
        Task {
            await flow.sendCode()
            if isCodeStep { focus = .code }
        }
    }

    private func verify() {
        Task { await flow.verify() }
    }

    private func scroll(_ proxy: ScrollViewProxy, to field: Field?) {
        #if !targetEnvironment(macCatalyst)
        guard let field else { return }
        withAnimation { proxy.scrollTo(field, anchor: .center) }
        #endif
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, flow.language)
    }
}
#endif
