import AccountAPI
import Foundation
import Observation

/// Deleting the account, with the step-up proof in ``proof`` (the password, with the second
/// factor while it is on; a passkey for an account that holds one; Apple's sheet for an account
/// without a password). The session ends with it (``SignOutReason/accountDeleted``).
///
/// ```swift
/// let form = AccountDeletionForm(session: session)
/// form.proof.password = "correct horse battery"
/// await form.submit()                 // isDeleted == true; the session is signed out
/// ```
@MainActor @Observable public final class AccountDeletionForm: StepUpChangeForm {
    /// The proof the deletion asks.
    public let proof: StepUpForm
    /// The account is gone.
    public private(set) var isDeleted = false

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - apple: Apple's sheet, which proves an account without a password.
    ///   - passkeys: the device's passkeys, which prove an account that holds one.
    public init(session: SessionManager, apple: AppleSignInAuthorizer? = nil, passkeys: PasskeyAuthorizer? = nil) {
        proof = StepUpForm(session: session, change: .deleteAccount, apple: apple, passkeys: passkeys)
    }

    /// What deleting means, in a sentence above the proof (whose ``StepUpForm/instructions`` follow).
    public var consequence: String { StepUpTexts.deleteInstructions(language) }

    /// The session ended (the account deleted, or the session ended meanwhile): show sign-in.
    public var isSignedOut: Bool { isDeleted || proof.isSignedOut }

    /// Whether the proof is typed and nothing is on its way.
    public var canSubmit: Bool { !isDeleted && proof.isComplete }

    /// Deletes the account.
    public func submit() async {
        guard !isDeleted else { return }
        let session = proof.session
        _ = await proof.submit { proof in
            try await session.deleteAccount(proof: proof)
            self.isDeleted = true
        }
    }
}
