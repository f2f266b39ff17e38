import AccountAPI
import Foundation
import Observation

/// The login screen: a nickname or email address and a password.
///
/// ```swift
/// let form = LoginForm(session: session)
/// form.identifier = "민수"
/// form.password = "correct horse battery"
/// await form.submit()
/// if form.needsEmailVerification { /* show EmailVerificationFlow(purpose: .verify) */ }
/// if let step = form.secondFactor { /* show the code step over SecondFactorForm */ }
/// ```
///
/// For an account with a second factor, a right password leads to ``secondFactor``, the code
/// step; when that step is over (5 minutes or 5 wrong codes) the form is back at the password
/// with the reason as ``message``.
@MainActor @Observable public final class LoginForm {
    /// Where the form is.
    public enum Phase: Sendable, Hashable {
        /// Being filled in.
        case idle
        /// The request is on its way.
        case submitting
        /// Logged in; the session holds the tokens.
        case signedIn(User)
        /// The password was right; the login waits for its second factor in ``LoginForm/secondFactor``.
        case awaitingSecondFactor
        /// Refused or unreachable; see ``LoginForm/message``.
        case failed(AccountError)
    }

    /// A field of the form.
    public enum Field: String, FormField {
        /// The nickname or email address (`login` on the wire).
        case identifier
        /// The password.
        case password

        /// The field's name on the wire.
        public var wireName: String { self == .identifier ? "login" : rawValue }
    }

    /// A nickname or an email address.
    public var identifier = "" { didSet { edited() } }
    /// The password.
    public var password = "" { didSet { edited() } }

    /// Where the form is.
    public private(set) var phase: Phase = .idle
    /// The password was right but the address is unverified: show the verification flow for
    /// ``verificationEmail``.
    public private(set) var needsEmailVerification = false

    /// The login's second step, while it waits for a code (the screen shows it instead of the
    /// password); `nil` otherwise.
    public private(set) var secondFactor: SecondFactorForm?

    /// The session the login starts.
    public let session: SessionManager

    /// - Parameter session: the session the login starts; its client's language is the messages'.
    ///   A login of this session that waits for its second factor already
    ///   (``SessionManager/State/awaitingSecondFactor(_:)``) starts at that step.
    public init(session: SessionManager) {
        self.session = session
        if let challenge = session.currentState.challenge { awaitSecondFactor(challenge) }
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// Whether both fields are filled and nothing is on its way.
    public var canSubmit: Bool {
        phase != .submitting && phase != .awaitingSecondFactor && !identifier.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && !password.isEmpty
    }

    /// Whether the request is on its way.
    public var isSubmitting: Bool { phase == .submitting }

    /// The address to verify when ``needsEmailVerification`` is set, if the user typed one.
    public var verificationEmail: String? {
        let text = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.contains("@") ? text : nil
    }

    /// The message for the whole form after a refusal.
    public var message: String? {
        guard case .failed(let error) = phase else { return nil }
        if !error.fieldErrors(as: Field.self).isEmpty { return nil }
        return Self.message(for: error, language)
    }

    /// The server's messages under `field` after a refusal of its value (the form checks only that
    /// both are filled in; the rules are the server's).
    public func errors(for field: Field) -> [String] {
        guard case .failed(let error) = phase else { return [] }
        return error.fieldErrors(as: Field.self)[field]?.map(\.message) ?? []
    }

    /// Logs in through the session.
    public func submit() async {
        guard canSubmit else { return }
        phase = .submitting
        needsEmailVerification = false
        do {
            let user = try await session.logIn(.identifier(identifier.trimmingCharacters(in: .whitespacesAndNewlines), password: password))
            phase = .signedIn(user)
        } catch AccountError.secondFactorRequired(let challenge) {
            awaitSecondFactor(challenge)
        } catch let error as AccountError {
            apply(error)
        } catch {
            apply(.storage(SessionManager.storageError(error)))
        }
    }

    /// Leaves the second step for the password (the waiting login is dropped).
    public func backToPassword() async {
        await secondFactor?.cancel()
    }

    /// Shows the second step for `challenge`, and follows it to its end.
    private func awaitSecondFactor(_ challenge: SecondFactorChallenge) {
        let step = SecondFactorForm(session: session, challenge: challenge)
        step.finished = { [weak self] outcome in self?.secondFactorFinished(outcome) }
        secondFactor = step
        phase = .awaitingSecondFactor
    }

    private func secondFactorFinished(_ outcome: SecondFactorForm.Phase) {
        secondFactor = nil
        switch outcome {
        case .signedIn(let user): phase = .signedIn(user)
        case .ended(let reason): phase = .failed(.secondFactorChallengeEnded(reason))
        case .cancelled: phase = .idle
        case .entering, .verifying: break
        }
    }

    /// The login screen shows again (back from the code screen): a "verify your email" refusal is
    /// stale by then (the address may be verified now), so it goes; other refusals stay.
    public func reappeared() {
        guard phase == .failed(.emailNotVerified) || needsEmailVerification else { return }
        needsEmailVerification = false
        phase = .idle
    }

    /// Shows a refusal.
    func apply(_ error: AccountError) {
        phase = .failed(error)
        needsEmailVerification = error == .emailNotVerified
    }

    /// The sentence a refusal shows as.
    static func message(for error: AccountError, _ language: Language) -> String {
        switch error {
        case .invalidCredentials: Messages.detail(.invalidCredentials, language)
        case .emailNotVerified: Messages.detail(.emailNotVerified, language)
        // The description words these (seconds to wait, connection lost) for the user already.
        default: error.localizedDescription(in: language)
        }
    }

    private func edited() {
        needsEmailVerification = false
        if case .failed = phase { phase = .idle }
    }
}
