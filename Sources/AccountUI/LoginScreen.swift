#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The login screen over ``LoginForm``: nickname or email and password, with links to sign-up
/// and password reset. A right password for an unverified address leads to the code screen.
public struct LoginScreen: View {
    enum Field: Hashable {
        case identifier
        case password
    }

    @State private var form: LoginForm
    @FocusState private var focus: Field?
    @Environment(AccountNavigator.self) private var navigator

    /// - Parameter session: the session the login starts.
    @MainActor public init(session: SessionManager) {
        _form = State(initialValue: LoginForm(session: session))
    }

    public var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: 20) {
                SignupTextFieldView(
                    kind: .identifier, title: text(.identifier), text: $form.identifier, field: Field.identifier,
                    focus: $focus
                ) { focus = .password }
                SignupTextFieldView(
                    kind: .password, title: text(.password), text: $form.password, field: Field.password,
                    focus: $focus, submitLabel: .go
                ) { submit() }
                if let message = form.message {
                    Text(message)
                        .font(.callout)
                        .foregroundStyle(.red)
                }
                PrimaryButton(title: text(.logIn), isEnabled: form.canSubmit, isWorking: form.isSubmitting) { submit() }
                Button(text(.forgotPassword)) {
                    navigator.push(.passwordReset(email: form.verificationEmail ?? ""))
                }
                .accessibilityLabel(text(.forgotPassword))
                Button(text(.noAccount)) {
                    navigator.push(.signUp)
                }
                .accessibilityLabel(text(.noAccount))
            }
            .padding()
            .accountColumn()
        }
        .navigationTitle(text(.logIn))
    }

    private func submit() {
        focus = nil
        Task {
            await form.submit()
            navigator.follow(
                AccountNavigation.afterLogIn(needsEmailVerification: form.needsEmailVerification, email: form.verificationEmail))
        }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, form.language)
    }
}
#endif
