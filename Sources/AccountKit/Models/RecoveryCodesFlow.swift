import AccountAPI
import Foundation
import Observation

/// A new set of recovery codes (the old set stops working): the password and the authenticator
/// app's code, then the new codes, shown until the person says they saved them.
///
/// ```swift
/// let flow = RecoveryCodesFlow(session: session)
/// flow.password = "correct horse battery"
/// flow.code = "123456"
/// await flow.submit()                 // step == .codes([...])
/// flow.savedRecoveryCodes = true
/// flow.finish()                       // step == .done
/// ```
@MainActor @Observable public final class RecoveryCodesFlow {
    /// Where the flow is.
    public enum Step: Sendable, Hashable {
        /// Asking for the password and the authenticator code.
        case confirm
        /// The new codes, shown once, until ``RecoveryCodesFlow/finish()``.
        case codes([String])
        /// Finished.
        case done
    }

    /// A field of the flow: `.password` and `.code` (a recovery code cannot make new ones).
    public typealias Field = SecondFactorField

    /// The account's password.
    public var password = "" { didSet { refusal.password = nil } }
    /// The authenticator app's code (spaces ignored).
    public var code = "" { didSet { refusal.code = nil } }
    /// "I saved them": the codes step ends only once this is on.
    public var savedRecoveryCodes = false { didSet { if savedRecoveryCodes { refusal.message = nil } } }

    /// Where the flow is.
    public private(set) var step: Step = .confirm
    /// A request is on its way.
    public private(set) var isWorking = false
    /// The session ended meanwhile: show sign-in.
    public private(set) var isSignedOut = false
    private var refusal = SecondFactorRefusal()

    /// The signed-in session.
    public let session: SessionManager

    /// - Parameter session: the signed-in session; its client's language is the messages'.
    public init(session: SessionManager) {
        self.session = session
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// A message about the whole flow.
    public var message: String? { refusal.message }

    /// The message under `field`.
    public func errors(for field: Field) -> [String] { refusal.errors(for: field, method: .authenticatorCode) }

    /// The new codes, while they are shown.
    public var recoveryCodes: [String] {
        if case .codes(let codes) = step { return codes }
        return []
    }

    /// The new codes one a line, to copy or share.
    public var recoveryCodesText: String { recoveryCodes.joined(separator: "\n") }

    /// What the current step asks, in a sentence.
    public var instructions: String {
        step == .confirm ? SecondFactorTexts.enterAuthenticatorCode(language) : SecondFactorTexts.saveRecoveryCodes(language)
    }

    /// Whether the password and a six-digit code are typed and nothing is on its way.
    public var canSubmit: Bool { step == .confirm && !isWorking && !password.isEmpty && codeEntry.isComplete }

    /// Whether the codes step can end ("I saved them" is on).
    public var canFinish: Bool { !recoveryCodes.isEmpty && savedRecoveryCodes }

    /// Asks for the new set.
    public func submit() async {
        guard step == .confirm, !isWorking else { return }
        let entry = codeEntry
        if password.isEmpty { refusal.password = SecondFactorTexts.enterPassword(language) }
        if !entry.isComplete { refusal.code = entry.requirement(language) }
        guard refusal.password == nil, refusal.code == nil else { return }
        isWorking = true
        refusal = SecondFactorRefusal()
        defer { isWorking = false }
        do {
            let codes = try await session.replaceRecoveryCodes(password: password, code: entry.normalizedCode)
            password = ""
            code = ""
            savedRecoveryCodes = false
            step = .codes(codes)
        } catch {
            refusal = SecondFactorRefusal(AccountError(wrapping: error), entry: entry, language)
            isSignedOut = refusal.endsSession
        }
    }

    /// Ends the codes step once ``savedRecoveryCodes`` is on (else says to confirm it).
    public func finish() {
        guard case .codes = step else { return }
        guard savedRecoveryCodes else {
            refusal.message = SecondFactorTexts.confirmSaved(language)
            return
        }
        refusal = SecondFactorRefusal()
        step = .done
    }

    private var codeEntry: SecondFactorEntry { SecondFactorEntry(code: code, recoveryCode: nil) }
}
