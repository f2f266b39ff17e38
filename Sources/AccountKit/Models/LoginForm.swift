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
/// ```
@MainActor @Observable public final class LoginForm {
    /// Where the form is.
    public enum Phase: Sendable, Hashable {
        /// Being filled in.
        case idle
        /// The request is on its way.
        case submitting
        /// Logged in; the session holds the tokens.
        case signedIn(User)
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

    /// The session the login starts.
    public let session: SessionManager

    /// - Parameter session: the session the login starts; its client's language is the messages'.
    public init(session: SessionManager) {
        self.session = session
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// Whether both fields are filled and nothing is on its way.
    public var canSubmit: Bool {
        phase != .submitting && !identifier.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && !password.isEmpty
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
        } catch let error as AccountError {
            apply(error)
        } catch {
            apply(.storage(SessionManager.storageError(error)))
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
