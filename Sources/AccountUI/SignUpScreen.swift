#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The sign-up screen over ``SignUpForm``: nickname, email, password twice and MBTI type, each
/// with its errors under it as the user types; the button is enabled only when the form can be
/// sent, and leaving with input asks first.
public struct SignUpScreen: View {
    @State private var form: SignUpForm
    @FocusState private var focus: SignUpField?
    @State private var keyboardHeight: CGFloat = 0
    @State private var asksToLeave = false
    @Environment(AccountNavigator.self) private var navigator

    /// - Parameters:
    ///   - session: the session a verified sign-up starts; its client sends the request.
    ///   - verifiedEmail: an address proven first (email-first flow), with its `token`.
    ///   - token: the verification token of `verifiedEmail`.
    @MainActor public init(session: SessionManager, verifiedEmail: String? = nil, token: String? = nil) {
        let form = SignUpForm(client: session.client, session: session)
        if let verifiedEmail, let token {
            form.email = verifiedEmail
            form.emailVerificationToken = token
        }
        _form = State(initialValue: form)
    }

    public var body: some View {
        ScrollViewReader { proxy in
            ScrollView {
                VStack(alignment: .leading, spacing: 20) {
                    fields
                    if let message = form.formError {
                        Text(message)
                            .font(.callout)
                            .foregroundStyle(.red)
                    }
                    #if !targetEnvironment(macCatalyst)
                    submitButton
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
            submitButton
                .padding()
                .accountColumn()
                .background(.bar)
        }
        #endif
        .navigationTitle(text(.signUp))
        .navigationBarBackButtonHidden(true)
        .toolbar {
            ToolbarItem(placement: .cancellationAction) {
                Button(text(.cancel)) { leave() }
                    .accessibilityLabel(text(.cancel))
            }
        }
        .confirmationDialog(text(.cancelSignUpTitle), isPresented: $asksToLeave, titleVisibility: .visible) {
            Button(text(.discard), role: .destructive) { navigator.pop() }
            Button(text(.keepEditing), role: .cancel) {}
        } message: {
            Text(text(.cancelSignUpMessage))
        }
        .task {
            await form.loadPolicy()
        }
        .onChange(of: form.phase) { _, phase in
            navigator.follow(AccountNavigation.afterSignUp(phase))
        }
    }

    @ViewBuilder private var fields: some View {
        SignupTextFieldView(
            kind: .nickname, title: text(.nickname), text: $form.username, field: SignUpField.username,
            focus: $focus, errors: form.errors(for: .username)
        ) { focus = .email }
        .id(SignUpField.username)
        SignupTextFieldView(
            kind: .email, title: text(.email), text: $form.email, field: SignUpField.email,
            focus: $focus, errors: form.errors(for: .email)
        ) { focus = .password }
        // The token proves this address only.
        .disabled(form.emailVerificationToken != nil)
        .id(SignUpField.email)
        SignupTextFieldView(
            kind: .newPassword, title: text(.password), text: $form.password, field: SignUpField.password,
            focus: $focus, errors: form.errors(for: .password)
        ) { focus = .passwordConfirmation }
        .id(SignUpField.password)
        SignupTextFieldView(
            kind: .newPassword, title: text(.passwordAgain), text: $form.passwordConfirmation,
            field: SignUpField.passwordConfirmation, focus: $focus, errors: form.errors(for: .passwordConfirmation),
            submitLabel: .done
        ) { focus = nil }
        .id(SignUpField.passwordConfirmation)
        MBTIPicker(
            title: text(.mbti), placeholder: text(.chooseMBTI), selection: $form.mbti,
            choices: form.mbtiChoices, errors: form.errors(for: .mbti))
        .id(SignUpField.mbti)
    }

    private var submitButton: some View {
        PrimaryButton(
            title: text(.createAccount), isEnabled: form.canSubmit, isWorking: form.isSubmitting,
            hint: text(.submitHint)
        ) {
            focus = nil
            Task { await form.submit() }
        }
    }

    private func leave() {
        if AccountNavigation.confirmsLeavingSignUp(hasInput: form.hasInput, phase: form.phase) {
            asksToLeave = true
        } else {
            navigator.pop()
        }
    }

    private func scroll(_ proxy: ScrollViewProxy, to field: SignUpField?) {
        #if !targetEnvironment(macCatalyst)
        guard let field else { return }
        withAnimation { proxy.scrollTo(field, anchor: .center) }
        #endif
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, form.language)
    }
}
#endif
