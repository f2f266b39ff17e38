#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// Turning off the second factor over ``SecondFactorDisableForm``, in a sheet above the profile:
/// what it means, then the step-up proof with the authenticator app's code or (its app lost) a
/// recovery code; closes once the factor is off.
struct SecondFactorDisableScreen: View {
    @State private var form: SecondFactorDisableForm

    /// - Parameters:
    ///   - session: the signed-in session.
    ///   - methods: the ways to log in the app offers, which may prove the account.
    @MainActor init(session: SessionManager, methods: SignInMethods = []) {
        _form = State(initialValue: SecondFactorDisableForm(session: session, apple: methods.appleAuthorizer, passkeys: methods.passkeyAuthorizer))
    }

    var body: some View {
        StepUpSheet(
            title: .twoStepVerification, proof: form.proof, action: .turnOff, canSubmit: form.canSubmit,
            isFinished: form.isDisabled || form.isSignedOut, submit: form.submit
        ) {
            Text(AccountUIStrings.text(.turnOffHint, form.language))
                .fixedSize(horizontal: false, vertical: true)
        }
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Turn off two-step verification") { AccountPreviews.disableSecondFactor() }
#Preview("2단계 인증 끄기") { AccountPreviews.disableSecondFactor(language: .ko) }
#endif
#endif
