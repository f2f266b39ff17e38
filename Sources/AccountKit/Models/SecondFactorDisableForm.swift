import AccountAPI
import Foundation
import Observation

/// Turning off the second factor, with the step-up proof in ``proof``: the password (an account
/// without one: Apple's sheet) or a passkey, and always the authenticator app's code, or a
/// recovery code when the app is lost.
///
/// ```swift
/// let form = SecondFactorDisableForm(session: session)
/// form.proof.password = "correct horse battery"
/// form.proof.useRecoveryCode()
/// form.proof.recoveryCode = "abcde-12345"
/// await form.submit()                 // isDisabled == true
/// ```
@MainActor @Observable public final class SecondFactorDisableForm: StepUpChangeForm {
    /// The proof turning it off asks.
    public let proof: StepUpForm
    /// The factor is off.
    public private(set) var isDisabled = false

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - apple: Apple's sheet, which proves an account without a password.
    ///   - passkeys: the device's passkeys, which prove an account that holds one.
    public init(session: SessionManager, apple: AppleSignInAuthorizer? = nil, passkeys: PasskeyAuthorizer? = nil) {
        proof = StepUpForm(session: session, change: .disableSecondFactor, apple: apple, passkeys: passkeys)
    }

    /// Whether the proof and a whole factor are typed and nothing is on its way.
    public var canSubmit: Bool { !isDisabled && proof.isComplete }

    /// Turns the factor off.
    public func submit() async {
        guard !isDisabled else { return }
        let session = proof.session
        let outcome = await proof.submit { proof in
            try await session.disableTOTP(proof: proof)
            self.isDisabled = true
        }
        // Off already (turned off on another device): what the form wanted.
        if case .refused(.conflict(.mfaNotEnabled)) = outcome { isDisabled = true }
    }
}
