#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// Deleting the account over ``AccountDeletionForm``, in a sheet above the profile: what it means,
/// then the step-up proof; once deleted the session is signed out and the sheet closes (the root
/// shows sign-in).
struct AccountDeletionScreen: View {
    @State private var form: AccountDeletionForm

    /// - Parameters:
    ///   - session: the signed-in session.
    ///   - methods: the ways to log in the app offers, which may prove the account.
    @MainActor init(session: SessionManager, methods: SignInMethods = []) {
        _form = State(initialValue: AccountDeletionForm(session: session, apple: methods.appleAuthorizer, passkeys: methods.passkeyAuthorizer))
    }

    var body: some View {
        StepUpSheet(
            title: .deleteAccount, proof: form.proof, action: .deleteAccount, canSubmit: form.canSubmit,
            isFinished: form.isSignedOut, submit: form.submit
        ) {
            Label(form.consequence, systemImage: "exclamationmark.triangle")
                .fixedSize(horizontal: false, vertical: true)
        }
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Delete account") { AccountPreviews.accountDeletion() }
#Preview("계정 삭제") { AccountPreviews.accountDeletion(language: .ko) }
#endif
#endif
