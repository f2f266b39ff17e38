#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// The field of a second factor, as the login's second step and turning it off ask for it: the
/// authenticator app's 6-digit code (number pad, one-time-code AutoFill), or after "use a
/// recovery code" a recovery code (letters and digits); the switch between the two under it.
///
/// The screen keeps the model (which method, the texts, the errors) and decides what submitting
/// does; this view only lays out the field of the method in use and its switch.
struct SecondFactorInput<Field: Hashable>: View {
    let method: SecondFactorEntry.Method
    @Binding var code: String
    @Binding var recoveryCode: String
    /// The focus values of the two fields.
    let codeField: Field
    let recoveryCodeField: Field
    let focus: FocusState<Field?>.Binding
    /// The messages under the field in use.
    let errors: [String]
    /// Whether "use a recovery code" is offered (the login's challenge may have none left).
    let offersRecoveryCode: Bool
    let language: Language
    /// The return key's name on the recovery-code field (a number pad has none).
    var submitLabel: SubmitLabel = .go
    /// Asks the model for the other method.
    let switchMethod: (SecondFactorEntry.Method) -> Void
    /// The return key (or the number pad's "Done").
    let onSubmit: () -> Void

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            switch method {
            case .authenticatorCode:
                SignupTextFieldView(
                    kind: .code, title: text(.authenticatorCode), text: $code, field: codeField, focus: focus,
                    errors: errors, submitLabel: .done, keyboardDoneTitle: text(.done), onSubmit: onSubmit)
                .id(codeField)
            case .recoveryCode:
                SignupTextFieldView(
                    kind: .recoveryCode, title: text(.recoveryCode), text: $recoveryCode, field: recoveryCodeField,
                    focus: focus, errors: errors, submitLabel: submitLabel, onSubmit: onSubmit)
                .id(recoveryCodeField)
            }
            if offersRecoveryCode || method == .recoveryCode {
                Button(text(method == .authenticatorCode ? .useRecoveryCode : .useAuthenticatorCode)) {
                    let other: SecondFactorEntry.Method = method == .authenticatorCode ? .recoveryCode : .authenticatorCode
                    switchMethod(other)
                    focus.wrappedValue = other == .authenticatorCode ? codeField : recoveryCodeField
                }
            }
        }
    }

    private func text(_ key: AccountUIStrings.Key) -> String {
        AccountUIStrings.text(key, language)
    }
}
#endif
