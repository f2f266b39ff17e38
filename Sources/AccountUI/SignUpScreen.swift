#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The sign-up details over ``SignUpForm``, after the address was proven (email first): the
/// address shown with its badge, not edited; nickname, password twice and MBTI type, each with its
/// errors under it as the user types. The return key skips the address; pressing the button before
/// every field is right shows every field's errors and names them under the button; leaving with
/// input asks first, in an alert. "Verify the address again" keeps what was typed: the address
/// screen holds it (``EmailVerificationFlow/signUpDraft``) and the next details take it back.
struct SignUpScreen: View {
    @State private var form: SignUpForm
    @FocusState private var focus: SignUpField?
    @State private var asksToLeave = false
    @Environment(AccountNavigator.self) private var navigator

    /// - Parameters:
    ///   - session: the session the sign-up starts; its client sends the request.
    ///   - verifiedEmail: the address proven on the code screen.
    ///   - token: the proof, which the account is created with.
    @MainActor init(session: SessionManager, verifiedEmail: String, token: String) {
        let form = SignUpForm(session: session)
        form.useVerifiedEmail(verifiedEmail, token: token)
        _form = State(initialValue: form)
    }

    var body: some View {
        FormColumn(focus: focus) {
            verifiedAddress
            fields
            FormMessageView(message: form.message)
            if form.needsNewVerification {
                Button(text(.verifyAgain)) {
                    navigator.signUpDraft = form.draft
                    navigator.follow(AccountNavigation.afterVerificationExpired)
                }
            }
            #if !targetEnvironment(macCatalyst)
            submitButton
            #endif
        }
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
            }
        }
        .asksBeforeLeavingSignUp($asksToLeave, language: form.language, navigator: navigator)
        .task {
            await form.loadPolicy()
        }
        .onAppear {
            // Back from proving the address again: what was typed before comes back.
            if let draft = navigator.signUpDraft {
                navigator.signUpDraft = nil
                form.restore(draft)
            }
            focus = .username
        }
        .onChange(of: form.phase) { _, phase in
            navigator.follow(AccountNavigation.afterSignUp(phase))
        }
    }

    /// The proven address: read, not typed.
    private var verifiedAddress: some View {
        LabeledContent(text(.verifiedEmail)) {
            HStack(spacing: 6) {
                Text(form.verifiedEmail ?? form.email)
                    .textSelection(.enabled)
                Image(systemName: "checkmark.seal.fill")
                    .foregroundStyle(Color.accentColor)
                    .accessibilityLabel(text(.verified))
            }
        }
        .accessibilityElement(children: .combine)
    }

    @ViewBuilder private var fields: some View {
        textField(.username, kind: .nickname, title: text(.nickname), text: $form.username)
        textField(.password, kind: .newPassword, title: text(.password), text: $form.password)
        textField(.passwordConfirmation, kind: .newPassword, title: text(.passwordAgain), text: $form.passwordConfirmation)
        MBTIPicker(
            title: text(.mbti), placeholder: text(.chooseMBTI), selection: $form.mbti,
            choices: form.mbtiChoices, errors: form.errors(for: .mbti))
        .id(SignUpField.mbti)
    }

    /// A field whose return key moves on in the form's order (``SignUpForm/field(after:)``).
    private func textField(_ field: SignUpField, kind: SignupFieldKind, title: String, text: Binding<String>) -> some View {
        let next = form.field(after: field)
        return SignupTextFieldView(
            kind: kind, title: title, text: text, field: field, focus: $focus, errors: form.errors(for: field),
            submitLabel: next == nil ? .done : .next
        ) { focus = next }
        .id(field)
    }

    /// The button, and after a press that could not send, what holds the form back.
    private var submitButton: some View {
        VStack(alignment: .leading, spacing: 8) {
            PrimaryButton(
                title: text(.createAccount), isEnabled: form.canPressSubmit, isWorking: form.isSubmitting,
                hint: text(.submitHint)
            ) {
                focus = nil
                Task { await form.submit() }
            }
            FieldErrorsView(errors: form.submitBlockers)
        }
    }

    private func leave() {
        if AccountNavigation.confirmsLeavingSignUp(hasInput: form.hasInput, phase: form.phase) {
            asksToLeave = true
        } else {
            navigator.follow(AccountNavigation.leavingSignUp)
        }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, form.language)
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Sign-up details") { AccountPreviews.signUp() }
#Preview("회원가입") { AccountPreviews.signUp(language: .ko) }
#endif
#endif
