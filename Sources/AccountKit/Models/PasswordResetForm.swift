import AccountAPI
import Foundation
import Observation

/// The password reset screen: ask for a code by email, then set a new password with it.
///
/// At the code step a new code can be asked for (``requestCode()`` again) once the resend
/// countdown is over, and "use another address" (``changeEmail()``) goes back to the address. The
/// countdown is kept per address, as the server counts it, and is a pure function of the
/// injected clock.
///
/// ```swift
/// let form = PasswordResetForm(session: session, email: "minsu@example.com")
/// await form.requestCode()          // phase == .codeSent
/// form.resendCountdown(at: Date())  // 60, 59, …
/// form.code = "123456"
/// form.newPassword = "a new long passphrase"
/// await form.confirm()              // phase == .done: log in with the new password
/// ```
@MainActor @Observable public final class PasswordResetForm: RequestRunning {
    /// Where the form is.
    public enum Phase: Sendable, Hashable {
        /// Asking for the address.
        case enterEmail
        /// A code may have been mailed (the server answers alike for unknown addresses).
        case codeSent
        /// The password is changed and every session ended.
        case done
    }

    /// A field of the form.
    public enum Field: String, FormField {
        /// The account's address.
        case email
        /// The code from the reset mail.
        case code
        /// The new password.
        case newPassword

        /// The field's name on the wire.
        public var wireName: String { self == .newPassword ? "new_password" : rawValue }
    }

    /// The account's address.
    public var email: String { didSet { emailError = nil } }
    /// The code from the email.
    public var code = "" { didSet { codeError = nil } }
    /// The new password.
    public var newPassword = "" { didSet { passwordServerError = nil } }

    /// Where the form is.
    public private(set) var phase: Phase = .enterEmail
    /// What is wrong with the address.
    private var emailError: String?
    /// What is wrong with the code, from the rules or the server.
    private var codeError: String?
    /// A message about the whole form (connection lost, too many requests, …).
    public internal(set) var message: String?
    /// A request is on its way.
    public internal(set) var isWorking = false
    /// When another code may be asked for, by address: the server's limit is per address.
    private var cooldowns = CodeCooldowns()
    /// The rules the fields are checked against.
    public private(set) var rules = FormRules()

    private var passwordServerError: String?
    /// The app's session; a reset ends every session of the account, this one's too.
    public let session: SessionManager

    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - session: the app's session; its client's language is the language of every message.
    ///   - email: the address, when the login screen knows it.
    ///   - now: the clock.
    public init(session: SessionManager, email: String = "", now: @escaping @Sendable () -> Date = { Date() }) {
        self.session = session
        self.email = email
        self.now = now
    }

    /// The API client.
    public var client: AccountClient { session.client }

    /// The language of the messages.
    public var language: Language { client.language }

    /// Uses `rules` from now on (a policy fetched elsewhere).
    public func use(_ rules: FormRules) { self.rules = rules }

    /// The messages under `field`: the address's and code's from the rules or the server until
    /// edited; the new password's as it is typed.
    public func errors(for field: Field) -> [String] {
        switch field {
        case .email: return emailError.map { [$0] } ?? []
        case .code: return codeError.map { [$0] } ?? []
        case .newPassword:
            if let passwordServerError { return [passwordServerError] }
            guard !newPassword.isEmpty else { return [] }
            return rules.messages(rules.password(newPassword, username: nil, email: email), field: "password", language)
        }
    }

    /// Whether every digit of the code is typed: the moment to move on to the new password, since a
    /// number pad has no return key.
    public var isCodeComplete: Bool { rules.code(code).isEmpty }

    /// Whether the code and new password can be sent.
    public var canConfirm: Bool {
        phase == .codeSent && !isWorking && rules.code(code).isEmpty
            && rules.password(newPassword, username: nil, email: email).isEmpty && passwordServerError == nil
    }

    /// When another code may be asked for the current address; `nil` before its first request.
    public var resendAvailableAt: Date? { cooldowns.availableAt(email) }

    /// Whole seconds until another code may be asked for at `now`; 0 when it may be now.
    public func resendCountdown(at now: Date) -> Int { cooldowns.countdown(email, at: now) }

    /// Whether a code may be asked for at `now` (the send and "send a new code" buttons).
    public func canRequestCode(at now: Date) -> Bool {
        phase != .done && !isWorking && resendCountdown(at: now) == 0
    }

    /// Checks the address, then asks the server to mail a reset code; at the code step, a new one.
    /// Does nothing during this address's countdown.
    public func requestCode() async {
        let problems = rules.email(email)
        guard problems.isEmpty else {
            emailError = rules.message(problems[0], field: "email", language)
            return
        }
        guard canRequestCode(at: now()) else { return }
        await run { [session, email] in
            try await session.requestPasswordReset(PasswordResetRequest(email: email))
            self.cooldowns.wait(self.rules.resendCooldown, for: email, from: self.now())
            self.code = ""
            self.phase = .codeSent
        }
    }

    /// Goes back to the address step to use another address (the typed address stays, to edit);
    /// this address's countdown is remembered if it comes back.
    public func changeEmail() {
        guard phase == .codeSent else { return }
        phase = .enterEmail
        code = ""
        message = nil
    }

    /// Sends the code and the new password.
    public func confirm() async {
        guard canConfirm else { return }
        await run { [session, email, code, newPassword] in
            try await session.confirmPasswordReset(
                PasswordResetConfirmRequest(email: email, code: CodeRule.normalize(code), newPassword: newPassword))
            self.phase = .done
        }
    }

    /// Shows a refusal on the field it is about, or on the form.
    func apply(_ error: AccountError) {
        switch error {
        case .invalidInput(let fields):
            let ours = error.fieldErrors(as: Field.self)
            if let first = ours[.email]?.first { emailError = rules.message(for: first, field: "email", language) }
            if let first = ours[.code]?.first { codeError = rules.message(for: first, field: "code", language) }
            if let first = ours[.newPassword]?.first { passwordServerError = rules.message(for: first, field: "password", language) }
            if fields.keys.contains(where: { Field(wireName: $0) == nil }) {
                message = error.localizedDescription(in: language)
            }
        case .codeRejected(let reason):
            codeError = Messages.detail(reason, language)
        case .rateLimited(let retryAfter):
            cooldowns.wait(retryAfter ?? rules.resendCooldown, for: email, from: now())
            message = error.localizedDescription(in: language)
        default:
            message = error.localizedDescription(in: language)
        }
    }
}
