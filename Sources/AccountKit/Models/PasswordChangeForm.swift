import AccountAPI
import Foundation
import Observation

/// A new password, signed in: the new one (checked by the sign-up's rules as it is typed), with
/// the step-up proof in ``proof`` (the current password, with the second factor while it is on;
/// a passkey for an account that holds one; Apple's sheet for an account without a password).
/// Every other session ends; this one stays.
///
/// ```swift
/// let form = PasswordChangeForm(session: session)
/// form.proof.password = "correct horse battery"     // the current one
/// form.newPassword = "another long passphrase 42"
/// await form.submit()                               // isChanged == true
/// ```
@MainActor @Observable public final class PasswordChangeForm: StepUpChangeForm {
    /// The form's own field (the proof's are ``StepUpForm/Field``).
    public enum Field: String, FormField {
        /// The new password.
        case newPassword

        /// The field's name on the wire.
        public var wireName: String { "new_password" }
    }

    /// The proof the change asks.
    public let proof: StepUpForm
    /// The password from now on.
    public var newPassword = "" { didSet { serverError = nil } }
    /// The password is changed.
    public private(set) var isChanged = false
    /// The rules the new password is checked against.
    public private(set) var rules = FormRules()
    private var serverError: String?

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - apple: Apple's sheet, which proves an account without a password.
    ///   - passkeys: the device's passkeys, which prove an account that holds one.
    public init(session: SessionManager, apple: AppleSignInAuthorizer? = nil, passkeys: PasskeyAuthorizer? = nil) {
        proof = StepUpForm(session: session, change: .changePassword, apple: apple, passkeys: passkeys)
    }

    /// Uses `rules` from now on (a policy fetched elsewhere).
    public func use(_ rules: FormRules) { self.rules = rules }

    /// What just succeeded, once the password is changed.
    public var notice: String? { isChanged ? StepUpTexts.passwordChanged(language) : nil }

    /// The messages under the new password: the server's refusal, else the rules as it is typed
    /// (against the account's nickname and address, and the current password).
    public func errors(for field: Field) -> [String] {
        if let serverError { return [serverError] }
        guard !newPassword.isEmpty else { return [] }
        if proof.asksPassword, newPassword == proof.password { return [StepUpTexts.sameAsCurrent(language)] }
        let user = session.currentUser
        return rules.messages(rules.password(newPassword, username: user?.username, email: user?.email), field: "password", language)
    }

    /// Whether the new password passes the rules, the proof is typed and nothing is on its way.
    public var canSubmit: Bool { !isChanged && !newPassword.isEmpty && errors(for: .newPassword).isEmpty && proof.isComplete }

    /// Sends the new password with the proof.
    public func submit() async {
        guard !isChanged, errors(for: .newPassword).isEmpty else { return }
        guard !newPassword.isEmpty else {
            serverError = rules.message(.required, field: "password", language)
            return
        }
        let (session, newPassword) = (proof.session, newPassword)
        let outcome = await proof.submit(keeping: [Field.newPassword.wireName]) { proof in
            try await session.changePassword(newPassword: newPassword, proof: proof)
            self.newPassword = ""
            self.isChanged = true
        }
        if case .refused(let error) = outcome, let first = error.fieldErrors(as: Field.self)[.newPassword]?.first {
            serverError = rules.message(for: first, field: "password", language)
        }
    }
}
