#if canImport(SwiftUI)
import AccountAPI
import AccountKit
import SwiftUI

/// The last step of Sign in with Apple for a new user, over ``AppleSignUpForm``, shown by the
/// login screen in place of the password: the address Apple gave (a private relay one with a word
/// on what it is), the nickname and the MBTI type with their errors as the user types (all of
/// them, and what holds the step back under the button, once it is pressed), and the way back. Signing in needs nothing from here: the session's new state shows the profile.
struct AppleSignUpStepView: View {
    typealias Field = AppleSignUpForm.Field

    @Bindable var form: AppleSignUpForm
    /// Back to the login (nothing is made).
    let cancel: () -> Void
    @FocusState private var focus: Field?

    var body: some View {
        VStack(alignment: .leading, spacing: 20) {
            Text(form.instructions)
                .foregroundStyle(.secondary)
                .fixedSize(horizontal: false, vertical: true)
            LabeledContent(text(.emailFromApple)) {
                VStack(alignment: .trailing, spacing: 2) {
                    Text(form.email)
                        .textSelection(.enabled)
                    if let note = form.emailNote {
                        Text(note)
                            .font(.footnote)
                            .foregroundStyle(.secondary)
                    }
                }
            }
            .accessibilityElement(children: .combine)
            SignupTextFieldView(
                kind: .nickname, title: text(.nickname), text: $form.username, field: Field.username, focus: $focus,
                errors: form.errors(for: .username), submitLabel: .done
            ) { focus = nil }
            .id(Field.username)
            MBTIPicker(
                title: text(.mbti), placeholder: text(.chooseMBTI), selection: $form.mbti, choices: form.mbtiChoices,
                errors: form.errors(for: .mbti))
            .id(Field.mbti)
            FormMessageView(message: form.message)
            PrimaryButton(
                title: text(.finishSignUp), isEnabled: form.canPressSubmit, isWorking: form.isSubmitting, hint: text(.submitHint)
            ) {
                focus = nil
                Task { await form.submit() }
            }
            FieldErrorsView(errors: form.submitBlockers)
            Button(text(.cancel), action: cancel)
        }
        .task { await form.loadPolicy() }
        .onAppear { focus = .username }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, form.language)
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Apple sign-up") { AccountPreviews.appleSignUpStep() }
#Preview("Apple로 가입") { AccountPreviews.appleSignUpStep(language: .ko) }
#endif
#endif
