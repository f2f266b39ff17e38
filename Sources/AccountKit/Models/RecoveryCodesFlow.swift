import AccountAPI
import Foundation
import Observation

/// A new set of recovery codes (the old set stops working): the step-up proof in ``proof`` (the
/// password, or a passkey, with the authenticator app's code always), then the new codes, shown
/// until the person says they saved them.
///
/// ```swift
/// let flow = RecoveryCodesFlow(session: session)
/// flow.proof.password = "correct horse battery"
/// flow.proof.code = "123456"
/// await flow.submit()                 // step == .codes([...])
/// flow.savedRecoveryCodes = true
/// flow.finish()                       // step == .done
/// ```
@MainActor @Observable public final class RecoveryCodesFlow: StepUpChangeForm {
    /// Where the flow is.
    public enum Step: Sendable, Hashable {
        /// Asking for the proof (``RecoveryCodesFlow/proof``).
        case confirm
        /// The new codes, shown once, until ``RecoveryCodesFlow/finish()``.
        case codes([String])
        /// Finished.
        case done
    }

    /// The proof new codes ask (its second factor an authenticator code: a recovery code cannot
    /// make new ones).
    public let proof: StepUpForm
    /// "I saved them": the codes step ends only once this is on.
    public var savedRecoveryCodes = false { didSet { if savedRecoveryCodes { savedMessage = nil } } }
    /// Where the flow is.
    public private(set) var step: Step = .confirm
    private var savedMessage: String?

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - apple: Apple's sheet, which proves an account without a password.
    ///   - passkeys: the device's passkeys, which prove an account that holds one.
    public init(session: SessionManager, apple: AppleSignInAuthorizer? = nil, passkeys: PasskeyAuthorizer? = nil) {
        proof = StepUpForm(session: session, change: .replaceRecoveryCodes, apple: apple, passkeys: passkeys)
    }

    /// A message about the codes step (confirm that they are saved); the proof's are
    /// ``StepUpForm/message``.
    public var message: String? { savedMessage }

    /// The new codes, while they are shown.
    public var recoveryCodes: [String] {
        if case .codes(let codes) = step { return codes }
        return []
    }

    /// The new codes one a line, to copy or share.
    public var recoveryCodesText: String { recoveryCodes.joined(separator: "\n") }

    /// What the current step asks, in a sentence.
    public var instructions: String { step == .confirm ? proof.instructions : SecondFactorTexts.saveRecoveryCodes(language) }

    /// Whether the proof is typed and nothing is on its way.
    public var canSubmit: Bool { step == .confirm && proof.isComplete }

    /// Whether the codes step can end ("I saved them" is on).
    public var canFinish: Bool { !recoveryCodes.isEmpty && savedRecoveryCodes }

    /// Asks for the new set.
    public func submit() async {
        guard step == .confirm else { return }
        let session = proof.session
        _ = await proof.submit { proof in
            let codes = try await session.replaceRecoveryCodes(proof: proof)
            self.savedRecoveryCodes = false
            self.step = .codes(codes)
        }
    }

    /// Ends the codes step once ``savedRecoveryCodes`` is on (else says to confirm it).
    public func finish() {
        guard case .codes = step else { return }
        guard savedRecoveryCodes else {
            savedMessage = SecondFactorTexts.confirmSaved(language)
            return
        }
        savedMessage = nil
        step = .done
    }
}
