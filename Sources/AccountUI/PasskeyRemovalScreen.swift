#if canImport(SwiftUI)
import AccountKit
import SwiftUI

/// Removing a passkey over ``PasskeyRemovalForm``, in a sheet above the profile: what it means,
/// then the step-up proof (a passkey when the account has no second factor, else the password or
/// Apple with the second factor); closes once the passkey is gone.
struct PasskeyRemovalScreen: View {
    let form: PasskeyRemovalForm

    var body: some View {
        StepUpSheet(
            title: .removePasskey, proof: form.proof, action: .remove, canSubmit: form.canSubmit,
            isFinished: form.isRemoved || form.isSignedOut, submit: form.submit
        ) {
            Label(form.passkey.name, systemImage: "person.badge.key")
                .font(.headline)
            Text(form.consequence)
                .fixedSize(horizontal: false, vertical: true)
        }
    }
}

#if targetEnvironment(simulator) || targetEnvironment(macCatalyst) || os(macOS)
#Preview("Remove passkey") { AccountPreviews.passkeyRemoval() }
#Preview("패스키 삭제") { AccountPreviews.passkeyRemoval(language: .ko) }
#endif
#endif
