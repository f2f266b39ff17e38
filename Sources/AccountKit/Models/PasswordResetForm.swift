import AccountAPI
import Foundation
import Observation

/// The password reset screen: ask for a code by email, then set a new password with it.
///
/// ```swift
/// let form = PasswordResetForm(client: client, email: "minsu@example.com")
/// await form.requestCode()          // step == .codeSent
/// form.code = "123456"
/// form.newPassword = "a new long passphrase"
/// await form.confirm()              // step == .done: log in with the new password
/// ```
@MainActor @Observable public final class PasswordResetForm {
    /// Where the form is.
    public enum Step: Sendable, Equatable {
        /// Asking for the address.
        case enterEmail
        /// A code may have been mailed (the server answers alike for unknown addresses).
        case codeSent
        /// The password is changed and every session ended.
        case done
    }

    /// The account's address.
    public var email: String { didSet { emailError = nil } }
    /// The code from the email.
    public var code = "" { didSet { codeError = nil } }
    /// The new password.
    public var newPassword = "" { didSet { passwordServerError = nil } }

    /// Where the form is.
    public private(set) var step: Step = .enterEmail
    /// What is wrong with the address.
    public private(set) var emailError: String?
    /// What is wrong with the code, from the rules or the server.
    public private(set) var codeError: String?
    /// A message about the whole form (connection lost, too many requests, …).
    public private(set) var message: String?
    /// A request is on its way.
    public private(set) var isWorking = false
    /// The rules the fields are checked against.
    public private(set) var rules = FormRules()

    private var passwordServerError: String?
    /// The API client.
    public let client: AccountClient

    /// - Parameters:
    ///   - client: the API client; its language is the language of every message.
    ///   - email: the address, when the login screen knows it.
    public init(client: AccountClient, email: String = "") {
        self.client = client
        self.email = email
    }

    /// The language of the messages.
    public var language: Language { client.language }

    /// Uses `rules` from now on (a policy fetched elsewhere).
    public func use(_ rules: FormRules) { self.rules = rules }

    /// Messages under the new password field, once something is typed.
    public var passwordErrors: [String] {
        if let passwordServerError { return [passwordServerError] }
        guard !newPassword.isEmpty else { return [] }
        return rules.messages(rules.password(newPassword, username: nil, email: email), field: "password", language)
    }

    /// Whether every digit of the code is typed: the moment to move on to the new password, since a
    /// number pad has no return key.
    public var isCodeComplete: Bool { rules.code(code).isEmpty }

    /// Whether the code and new password can be sent.
    public var canConfirm: Bool {
        step == .codeSent && !isWorking && rules.code(code).isEmpty
            && rules.password(newPassword, username: nil, email: email).isEmpty && passwordServerError == nil
    }

    /// Checks the address, then asks the server to mail a reset code.
    public func requestCode() async {
        let problems = rules.email(email)
        guard problems.isEmpty else {
            emailError = rules.message(problems[0], field: "email", language)
            return
        }
        await run { [client, email] in
            try await client.requestPasswordReset(PasswordResetRequest(email: email))
            self.step = .codeSent
        }
    }

    /// Sends the code and the new password.
    public func confirm() async {
        guard canConfirm else { return }
        await run { [client, email, code, newPassword] in
            try await client.confirmPasswordReset(
                PasswordResetConfirmRequest(email: email, code: CodeRule.normalize(code), newPassword: newPassword))
            self.step = .done
        }
    }

    private func run(_ body: () async throws -> Void) async {
        isWorking = true
        message = nil
        defer { isWorking = false }
        do {
            try await body()
        } catch let error as AccountError {
            apply(error)
        } catch {
            apply(.transport(URLError(.unknown)))
        }
    }

    /// Shows a refusal on the field it is about, or on the form.
    func apply(_ error: AccountError) {
        switch error {
        case .invalidInput(let fields):
            if let first = fields["email"]?.first { emailError = text(first, field: "email") }
            if let first = fields["code"]?.first { codeError = text(first, field: "code") }
            if let first = fields["new_password"]?.first { passwordServerError = text(first, field: "password") }
            if fields.keys.contains(where: { !["email", "code", "new_password"].contains($0) }) {
                message = error.description(in: language)
            }
        case .codeRejected(let reason):
            codeError = Messages.detail(reason, language)
        default:
            message = error.description(in: language)
        }
    }

    private func text(_ error: FieldError, field: String) -> String {
        error.message.isEmpty ? rules.message(error.code, field: field, language) : error.message
    }
}
