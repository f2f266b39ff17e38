import AccountAPI
import Foundation
import Observation

/// The login's second step, after a right password for an account with a second factor: the
/// authenticator app's 6-digit code, sent by itself at the sixth digit (a number pad has no
/// return key), or "use a recovery code" instead.
///
/// ``LoginForm`` makes one when the login answers ``AccountError/secondFactorRequired(_:)``
/// (``LoginForm/secondFactor``); when the step is over (5 minutes, 5 wrong codes) the login form
/// takes over again, with the reason as its message.
///
/// ```swift
/// if let step = loginForm.secondFactor {
///     step.code = "123456"
///     await step.submitIfComplete()      // phase == .signedIn(user)
/// }
/// ```
@MainActor @Observable public final class SecondFactorForm {
    /// Where the step is.
    public enum Phase: Sendable, Hashable {
        /// Waiting for a code.
        case entering
        /// The code is on its way.
        case verifying
        /// Logged in; the session holds the tokens.
        case signedIn(User)
        /// The step is over (``AccountError/secondFactorChallengeEnded(_:)``): back to the
        /// password; ``SecondFactorForm/message`` says why.
        case ended(ErrorCode)
        /// The person went back to the password (``SecondFactorForm/cancel()``).
        case cancelled
    }

    /// A field of the step.
    public enum Field: String, FormField {
        /// The authenticator app's code.
        case code
        /// A recovery code.
        case recoveryCode

        /// The field's name on the wire.
        public var wireName: String { self == .code ? "code" : "recovery_code" }
    }

    /// What is typed, and which factor.
    public private(set) var entry = SecondFactorEntry()
    /// The authenticator app's code as typed (spaces ignored).
    public var code: String {
        get { entry.code }
        set { entry.code = newValue; edited() }
    }
    /// A recovery code as typed.
    public var recoveryCode: String {
        get { entry.recoveryCode }
        set { entry.recoveryCode = newValue; edited() }
    }
    /// Which factor is asked for; the screen shows the field of this one.
    public var method: SecondFactorEntry.Method {
        get { entry.method }
        set {
            guard newValue != entry.method, newValue == .authenticatorCode || challenge.acceptsRecoveryCode else { return }
            entry.method = newValue
            fieldError = nil
            message = nil
        }
    }

    /// Where the step is.
    public private(set) var phase: Phase = .entering
    /// The challenge answered (its ``SecondFactorChallenge/attemptsLeft`` follows wrong codes).
    public private(set) var challenge: SecondFactorChallenge
    /// A message about the whole step (the step is over, too many tries, connection lost…).
    public private(set) var message: String?
    private var fieldError: String?
    /// The last entry sent, so an unchanged refused code is not sent again by itself.
    private var lastTried: SecondFactorEntry?

    /// The session the login finishes in.
    public let session: SessionManager
    /// Told when the step signed in or is over (the login form follows).
    @ObservationIgnored var finished: ((Phase) -> Void)?

    /// - Parameters:
    ///   - session: the session that holds `challenge`; its client's language is the messages'.
    ///   - challenge: the login's challenge (``AccountError/secondFactorRequired(_:)``).
    public init(session: SessionManager, challenge: SecondFactorChallenge) {
        self.session = session
        self.challenge = challenge
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// Whether "use a recovery code" is offered (the account has some left).
    public var offersRecoveryCode: Bool { challenge.acceptsRecoveryCode }

    /// Switches to a recovery code.
    public func useRecoveryCode() { method = .recoveryCode }

    /// Switches back to the authenticator app's code.
    public func useAuthenticatorCode() { method = .authenticatorCode }

    /// What the step asks for, in a sentence above the field.
    public var instructions: String {
        entry.method == .authenticatorCode
            ? SecondFactorTexts.authenticatorInstructions(language) : SecondFactorTexts.recoveryInstructions(language)
    }

    /// Wrong codes still allowed before the step is spent.
    public var attemptsLeft: Int { challenge.attemptsLeft }

    /// Whether the typed factor is whole (six digits, or a recovery code's ten characters).
    public var isComplete: Bool { entry.isComplete }

    /// Whether the typed factor can be sent now.
    public var canSubmit: Bool { phase == .entering && entry.isComplete }

    /// Whether the code is on its way.
    public var isSubmitting: Bool { phase == .verifying }

    /// The message under `field`: the shape it needs, or why the server refused it (with the
    /// tries left).
    public func errors(for field: Field) -> [String] {
        guard field.wireName == entry.wireName, let fieldError else { return [] }
        return [fieldError]
    }

    /// Sends the code once its sixth digit is typed, unless this same code was refused already;
    /// for every change of the field. A recovery code waits for ``submit()``.
    public func submitIfComplete() async {
        guard entry.method == .authenticatorCode, canSubmit, lastTried != entry else { return }
        await submit()
    }

    /// Sends the typed factor (``SessionManager/verifySecondFactor(code:)``).
    public func submit() async {
        guard phase == .entering else { return }
        if !entry.isComplete {
            fieldError = entry.requirement(language)
            return
        }
        let sent = entry
        lastTried = sent
        phase = .verifying
        message = nil
        do {
            let user = sent.method == .authenticatorCode
                ? try await session.verifySecondFactor(code: sent.code)
                : try await session.verifySecondFactor(recoveryCode: sent.recoveryCode)
            phase = .signedIn(user)
            finished?(phase)
        } catch {
            // The session counts wrong codes on the challenge it keeps.
            if let current = await session.secondFactorChallenge, current.mfaToken == challenge.mfaToken { challenge = current }
            apply(AccountError(wrapping: error), sent: sent)
        }
    }

    /// Goes back to the password: the waiting login is dropped.
    public func cancel() async {
        await session.cancelSecondFactor()
        phase = .cancelled
        finished?(phase)
    }

    /// Shows a refusal.
    func apply(_ error: AccountError, sent: SecondFactorEntry) {
        phase = .entering
        switch error {
        case .codeRejected(.codeInvalid):
            fieldError = sent.wrongMessage(language) + " " + SecondFactorTexts.attemptsLeft(challenge.attemptsLeft)(language)
        case .invalidInput:
            fieldError = entry.requirement(language)
        case .secondFactorChallengeEnded(let reason):
            phase = .ended(reason)
            message = error.localizedDescription(in: language)
            finished?(phase)
        default:
            message = error.localizedDescription(in: language)
        }
    }

    private func edited() {
        fieldError = nil
        if phase == .entering { message = nil }
    }
}

extension SecondFactorForm: LoginStep {}

extension SecondFactorForm.Phase: LoginStepOutcome {
    /// Where the login form goes on when the step is at this phase: signed in, back at the
    /// password (with the reason when the step ran out); `nil` while the step goes on.
    var loginPhase: LoginForm.Phase? {
        switch self {
        case .signedIn(let user): .signedIn(user)
        case .ended(let reason): .failed(.secondFactorChallengeEnded(reason))
        case .cancelled: .idle
        case .entering, .verifying: nil
        }
    }
}
