import AccountAPI
import Foundation
import Observation

/// Turning off the second factor: the password and the authenticator app's code, or a recovery
/// code when the app is lost.
///
/// ```swift
/// let form = SecondFactorDisableForm(session: session)
/// form.password = "correct horse battery"
/// form.useRecoveryCode()
/// form.recoveryCode = "abcde-12345"
/// await form.submit()                 // isDisabled == true
/// ```
@MainActor @Observable public final class SecondFactorDisableForm {
    /// A field of the form: `.password`, and `.code` or `.recoveryCode`.
    public typealias Field = SecondFactorField

    /// The account's password.
    public var password = "" { didSet { refusal.password = nil } }
    /// The factor typed, and which one.
    public private(set) var entry = SecondFactorEntry()
    /// The authenticator app's code (spaces ignored).
    public var code: String {
        get { entry.code }
        set { entry.code = newValue; refusal.code = nil }
    }
    /// A recovery code, used when ``method`` is `.recoveryCode`.
    public var recoveryCode: String {
        get { entry.recoveryCode }
        set { entry.recoveryCode = newValue; refusal.code = nil }
    }
    /// Which factor the form asks for.
    public var method: SecondFactorEntry.Method {
        get { entry.method }
        set { entry.method = newValue; refusal.code = nil }
    }

    /// The factor is off.
    public private(set) var isDisabled = false
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

    /// Switches to a recovery code.
    public func useRecoveryCode() { method = .recoveryCode }

    /// Switches back to the authenticator app's code.
    public func useAuthenticatorCode() { method = .authenticatorCode }

    /// A message about the whole form.
    public var message: String? { refusal.message }

    /// The message under `field` (the factor's under the field of the method in use).
    public func errors(for field: Field) -> [String] { refusal.errors(for: field, method: entry.method) }

    /// Whether the password and a whole factor are typed and nothing is on its way.
    public var canSubmit: Bool { !isDisabled && !isWorking && !password.isEmpty && entry.isComplete }

    /// Turns the factor off.
    public func submit() async {
        guard !isDisabled, !isWorking else { return }
        let entry = entry
        if password.isEmpty { refusal.password = SecondFactorTexts.enterPassword(language) }
        if !entry.isComplete { refusal.code = entry.requirement(language) }
        guard refusal.password == nil, refusal.code == nil else { return }
        isWorking = true
        refusal = SecondFactorRefusal()
        defer { isWorking = false }
        do {
            let (code, recoveryCode) = entry.wire
            try await session.disableTOTP(password: password, code: code, recoveryCode: recoveryCode)
            password = ""
            self.entry = SecondFactorEntry()
            isDisabled = true
        } catch {
            let error = AccountError(wrapping: error)
            refusal = SecondFactorRefusal(error, entry: entry, language)
            isSignedOut = refusal.endsSession
            // Off already (turned off on another device): what the form wanted.
            if error == .conflict(.mfaNotEnabled) { isDisabled = true }
        }
    }
}
