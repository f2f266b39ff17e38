#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The password reset screen over ``PasswordResetForm``: the address, then the mailed code and
/// a new password; when done, back to login.
public struct PasswordResetScreen: View {
    enum Field: Hashable {
        case email
        case code
        case newPassword
    }

    @State private var form: PasswordResetForm
    @FocusState private var focus: Field?
    @Environment(AccountNavigator.self) private var navigator

    /// - Parameters:
    ///   - client: the API client.
    ///   - email: the address, when the login screen knows it.
    @MainActor public init(client: AccountClient, email: String = "") {
        _form = State(initialValue: PasswordResetForm(client: client, email: email))
    }

    public var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: 20) {
                switch form.step {
                case .enterEmail:
                    SignupTextFieldView(
                        kind: .email, title: text(.email), text: $form.email, field: Field.email, focus: $focus,
                        errors: form.emailError.map { [$0] } ?? [], submitLabel: .send
                    ) { requestCode() }
                    PrimaryButton(title: text(.sendCode), isEnabled: true, isWorking: form.isWorking) { requestCode() }
                case .codeSent:
                    Text(verbatim: "\(text(.codeSentTo)) \(form.email)")
                        .foregroundStyle(.secondary)
                    SignupTextFieldView(
                        kind: .code, title: text(.code), text: $form.code, field: Field.code, focus: $focus,
                        errors: form.codeError.map { [$0] } ?? []
                    ) { focus = .newPassword }
                    SignupTextFieldView(
                        kind: .newPassword, title: text(.newPassword), text: $form.newPassword,
                        field: Field.newPassword, focus: $focus, errors: form.passwordErrors, submitLabel: .done
                    ) { confirm() }
                    PrimaryButton(title: text(.setPassword), isEnabled: form.canConfirm, isWorking: form.isWorking) {
                        confirm()
                    }
                case .done:
                    Label(text(.passwordChanged), systemImage: "checkmark.circle")
                    PrimaryButton(title: text(.logIn), isEnabled: true, isWorking: false) { navigator.popToRoot() }
                }
                if let message = form.message {
                    Text(message)
                        .font(.callout)
                        .foregroundStyle(.red)
                }
            }
            .padding()
            .accountColumn()
        }
        .navigationTitle(text(.resetPassword))
    }

    private func requestCode() {
        focus = nil
        Task {
            await form.requestCode()
            if form.step == .codeSent { focus = .code }
        }
    }

    private func confirm() {
        focus = nil
        Task { await form.confirm() }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, form.language)
    }
}
#endif
