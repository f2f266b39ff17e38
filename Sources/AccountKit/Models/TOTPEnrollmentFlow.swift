import AccountAPI
import Foundation
import Observation

/// Turning on the second factor: the step-up proof in ``proof`` (the password, an account without
/// one Apple's sheet; a passkey for an account that holds one), then the authenticator app's
/// secret (a QR code of ``otpauthURL`` and the key as text), then the app's first code, then the
/// ten recovery codes, which stay on screen until the person says they saved them.
///
/// ```swift
/// let flow = TOTPEnrollmentFlow(session: session)
/// flow.proof.password = "correct horse battery"
/// await flow.start()                  // step == .scan(enrollment): draw flow.otpauthURL as a QR code
/// flow.code = "123456"
/// await flow.confirmIfComplete()      // step == .recoveryCodes(codes)
/// flow.savedRecoveryCodes = true
/// flow.finish()                       // step == .done
/// ```
@MainActor @Observable public final class TOTPEnrollmentFlow: StepUpChangeForm {
    /// Where the flow is.
    public enum Step: Sendable, Hashable {
        /// Asking for the proof (``TOTPEnrollmentFlow/proof``).
        case proof
        /// The secret is issued: show it (QR code and text) and ask for the app's code.
        case scan(TOTPEnrollment)
        /// The factor is on: show the recovery codes (once) until ``TOTPEnrollmentFlow/finish()``.
        case recoveryCodes([String])
        /// Finished: the factor is on and the codes were saved.
        case done
    }

    /// A field of the flow: the proof's, then `.code`.
    public typealias Field = SecondFactorField

    /// The proof starting the enrolment asks.
    public let proof: StepUpForm
    /// The authenticator app's code (spaces ignored).
    public var code = "" { didSet { refusal.code = nil } }
    /// "I saved them": the recovery codes step ends only once this is on.
    public var savedRecoveryCodes = false { didSet { if savedRecoveryCodes { refusal.message = nil } } }

    /// Where the flow is.
    public private(set) var step: Step = .proof
    /// A request is on its way (the code's; the proof's is ``StepUpForm/isWorking``).
    private var isConfirming = false
    /// The session ended while the code was sent.
    private var endedWhileConfirming = false
    private var refusal = SecondFactorRefusal()
    /// The last code sent, so an unchanged refused code is not sent again by itself.
    private var lastTriedCode: String?

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - apple: Apple's sheet, which proves an account without a password.
    ///   - passkeys: the device's passkeys, which prove an account that holds one.
    public init(session: SessionManager, apple: AppleSignInAuthorizer? = nil, passkeys: PasskeyAuthorizer? = nil) {
        proof = StepUpForm(session: session, change: .enableSecondFactor, apple: apple, passkeys: passkeys)
    }

    /// A request, or a system sheet, is on its way.
    public var isWorking: Bool { isConfirming || proof.isWorking }

    /// The session ended meanwhile: show sign-in.
    public var isSignedOut: Bool { endedWhileConfirming || proof.isSignedOut }

    /// A message about the flow's own steps (the enrolment ended, too many tries, connection
    /// lost…); the proof's are ``StepUpForm/message``.
    public var message: String? { refusal.message }

    /// The message under the code field (`.code`); the proof's fields have ``StepUpForm/errors(for:)``.
    public func errors(for field: Field) -> [String] { field == .code ? refusal.errors(for: field, method: .authenticatorCode) : [] }

    /// What the current step asks, in a sentence.
    public var instructions: String {
        switch step {
        case .proof: proof.instructions
        case .scan: SecondFactorTexts.scanInstructions(language)
        case .recoveryCodes, .done: SecondFactorTexts.saveRecoveryCodes(language)
        }
    }

    /// The enrolment being confirmed (``Step/scan(_:)``).
    public var enrollment: TOTPEnrollment? {
        if case .scan(let enrollment) = step { return enrollment }
        return nil
    }

    /// The `otpauth://` URI as a URL: what the QR code holds, and what "open in authenticator" opens.
    public var otpauthURL: URL? { enrollment?.otpauthURL }

    /// The secret in groups of four (`ABCD EFGH …`), for typing into an app by hand.
    public var groupedSecret: String? { enrollment?.groupedSecret }

    /// The recovery codes, while they are shown.
    public var recoveryCodes: [String] {
        if case .recoveryCodes(let codes) = step { return codes }
        return []
    }

    /// The recovery codes one a line, to copy or share.
    public var recoveryCodesText: String { recoveryCodes.joined(separator: "\n") }

    /// Whether the proof step can be sent.
    public var canStart: Bool { step == .proof && proof.isComplete }

    /// Whether the typed code is six digits and can be sent.
    public var canConfirm: Bool { enrollment != nil && !isWorking && codeEntry.isComplete }

    /// Whether the recovery codes step can end ("I saved them" is on).
    public var canFinish: Bool { !recoveryCodes.isEmpty && savedRecoveryCodes }

    /// Sends the proof; the reply's secret moves the flow to ``Step/scan(_:)``.
    public func start() async {
        guard step == .proof, !isConfirming else { return }
        refusal = SecondFactorRefusal()
        let session = proof.session
        _ = await proof.submit { proof in
            let enrollment = try await session.enrollTOTP(proof: proof)
            self.code = ""
            self.lastTriedCode = nil
            self.step = .scan(enrollment)
        }
    }

    /// Sends the code once its sixth digit is typed, unless this same code was refused already.
    public func confirmIfComplete() async {
        guard canConfirm, codeEntry.normalizedCode != lastTriedCode else { return }
        await confirm()
    }

    /// Sends the app's code; the factor is on and the recovery codes show.
    public func confirm() async {
        guard enrollment != nil, !isWorking else { return }
        let entry = codeEntry
        if !entry.isComplete {
            refusal.code = entry.requirement(language)
            return
        }
        lastTriedCode = entry.normalizedCode
        await run { [session] in
            let codes = try await session.confirmTOTP(code: entry.normalizedCode)
            self.code = ""
            self.savedRecoveryCodes = false
            self.step = .recoveryCodes(codes)
        }
    }

    /// Ends the recovery codes step once ``savedRecoveryCodes`` is on (else says to confirm it).
    public func finish() {
        guard case .recoveryCodes = step else { return }
        guard savedRecoveryCodes else {
            refusal.message = SecondFactorTexts.confirmSaved(language)
            return
        }
        refusal = SecondFactorRefusal()
        step = .done
    }

    /// Back to the proof (a new secret replaces the unconfirmed one).
    public func startOver() {
        guard !isWorking, step != .done else { return }
        if case .recoveryCodes = step { return }
        step = .proof
        code = ""
        refusal = SecondFactorRefusal()
    }

    private var codeEntry: SecondFactorEntry { SecondFactorEntry(code: code, recoveryCode: nil) }

    /// Runs the code's request with `isWorking` set, and shows its refusal.
    private func run(_ body: () async throws -> Void) async {
        isConfirming = true
        refusal = SecondFactorRefusal()
        defer { isConfirming = false }
        do {
            try await body()
        } catch {
            apply(AccountError(wrapping: error))
        }
    }

    private func apply(_ error: AccountError) {
        refusal = SecondFactorRefusal(error, entry: codeEntry, language)
        endedWhileConfirming = refusal.endsSession
        // Confirming without an enrolment: another device started one, or it was confirmed
        // elsewhere; start again from the proof.
        if error == .conflict(.mfaNotEnabled), enrollment != nil {
            step = .proof
            refusal.message = SecondFactorTexts.enrolmentEnded(language)
        }
    }
}
