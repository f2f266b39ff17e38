import AccountAPI
import Foundation
import Observation

/// Removing one passkey, with the step-up proof in ``proof``: one of the account's passkeys when
/// it has no second factor (it holds this one, so its password alone does not do), else the
/// password (an account without one: Apple's sheet) with the authenticator app's code or a
/// recovery code, or a passkey instead.
///
/// ```swift
/// let form = passkeys.removal(of: passkey, for: user)
/// if form.proof.asksPassword { form.proof.password = "correct horse battery" }
/// if form.proof.asksSecondFactor { form.proof.code = "123456" }
/// await form.submit()                 // isRemoved == true; the list no longer has it
/// ```
@MainActor @Observable public final class PasskeyRemovalForm: StepUpChangeForm {
    /// The passkey to remove.
    public let passkey: Passkey
    /// The proof the removal asks.
    public let proof: StepUpForm
    /// The passkey is gone.
    public private(set) var isRemoved = false
    /// Told the id of the removed passkey (the list follows).
    @ObservationIgnored var removed: ((UUID) -> Void)?

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - passkey: the passkey to remove.
    ///   - user: the signed-in account: what it holds decides what the proof asks.
    ///   - apple: Apple's sheet, which proves an account without a password that has Apple linked.
    ///   - passkeys: the device's passkeys, which prove an account that holds one.
    public init(session: SessionManager, passkey: Passkey, user: User, apple: AppleSignInAuthorizer? = nil, passkeys: PasskeyAuthorizer? = nil) {
        self.passkey = passkey
        let requirement = StepUpRequirement(change: .removePasskey, user: user, holdsPasskey: true)
        proof = StepUpForm(session: session, requirement: requirement, apple: apple, passkeys: passkeys)
    }

    /// What removing means, in a sentence above the proof (whose ``StepUpForm/instructions`` follow).
    public var consequence: String { PasskeyTexts.removeInstructions(language) }

    /// Whether the proof is typed and nothing is on its way.
    public var canSubmit: Bool { !isRemoved && proof.isComplete }

    /// Removes the passkey (after Apple's or the passkey's sheet, when the proof is one of those;
    /// closing it changes nothing).
    public func submit() async {
        guard !isRemoved else { return }
        let (session, id) = (proof.session, passkey.id)
        _ = await proof.submit { proof in
            do {
                try await session.removePasskey(id: id, proof: proof)
            } catch AccountError.refused(let problem) where problem.code == .notFound {
                // Removed already (on another device): what the form wanted.
            }
            self.isRemoved = true
            self.removed?(id)
        }
    }
}

extension PasskeyRemovalForm: Identifiable {
    /// The passkey's id: one removal form a passkey (a sheet's item).
    public nonisolated var id: UUID { passkey.id }
}
