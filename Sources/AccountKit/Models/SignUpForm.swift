import AccountAPI
import Foundation
import Observation

/// The sign-up screen: its fields, their errors as the user types, and the request it sends.
///
/// An error shows only on a field the user has edited, or on every field after a submit attempt.
/// Errors from the server land on the field they are about and go away when that field is edited.
/// The button can be pressed before every field is right (``canPressSubmit``): pressing it then
/// sends nothing, shows every field's errors, and names what holds it back under the button
/// (``submitBlockers``), an MBTI type never chosen included.
///
/// Two flows: details first (every field; the server mails a code to the address afterwards, and
/// ``EmailVerificationFlow`` with purpose `.verify` checks it and signs in), and email first, the
/// app's flow: ``EmailVerificationFlow`` proves the address, then ``useVerifiedEmail(_:token:)``
/// shows it fixed and the form creates the account verified and signed in, through the session.
///
/// ```swift
/// let form = SignUpForm(session: session)
/// form.username = "민수"
/// form.errors(for: .username)   // []
/// await form.submit()           // form.phase == .codeSent(email: "minsu@example.com", expiresIn: 600)
/// ```
@MainActor @Observable public final class SignUpForm: SubmittableForm {
    /// A field of the form.
    public typealias Field = SignUpField

    /// Where the form is.
    public enum Phase: Sendable, Hashable {
        /// Being filled in.
        case idle
        /// The request is on its way.
        case submitting
        /// A code was mailed to `email`, good for `expiresIn` seconds; verifying it makes the
        /// account (details-first flow).
        case codeSent(email: String, expiresIn: Int)
        /// The account exists verified and the session is signed in (email-first flow).
        case signedIn(User)
        /// The server refused or could not be reached; field errors are on their fields.
        case failed(AccountError)
    }

    /// The nickname.
    public var username = "" { didSet { edited(.username) } }
    /// The email address.
    public var email = "" { didSet { edited(.email) } }
    /// The password.
    public var password = "" { didSet { edited(.password) } }
    /// The password again.
    public var passwordConfirmation = "" { didSet { edited(.passwordConfirmation) } }
    /// The chosen MBTI type, from ``mbtiChoices``.
    public var mbti: MBTI? { didSet { edited(.mbti) } }
    /// The token of an address verified first (email-first flow); the account is then created
    /// verified and signed in.
    public var emailVerificationToken: String?
    /// The address the token proves: shown, not edited (email-first flow); `nil` in details first.
    public private(set) var verifiedEmail: String?

    /// Where the form is.
    public private(set) var phase: Phase = .idle
    /// The rules fields are checked against; the server's after ``loadPolicy()``.
    public private(set) var rules = FormRules()
    /// Fields the user has edited.
    public private(set) var touched: Set<Field> = []
    /// Whether the user has tried to submit (every field's errors show from then on).
    public private(set) var submitAttempted = false
    /// Messages from the server, by field, until the field is edited.
    private var serverErrors: [Field: [String]] = [:]

    /// The session a verified sign-up (email-first flow) signs in; its client sends the request.
    public let session: SessionManager

    /// - Parameter session: the app's session; its client's language is the language of every message.
    public init(session: SessionManager) {
        self.session = session
    }

    /// The API client.
    public var client: AccountClient { session.client }

    /// The language of the messages.
    public var language: Language { client.language }

    /// The MBTI types the picker offers.
    public var mbtiChoices: [MBTI] { rules.mbtiTypes }

    /// Whether anything was entered (ask before throwing it away); a verified address was not typed here.
    public var hasInput: Bool {
        let typedEmail = verifiedEmail == nil && !email.isEmpty
        return !username.isEmpty || typedEmail || !password.isEmpty || !passwordConfirmation.isEmpty || mbti != nil
    }

    /// Starts the email-first flow's second step: `email` is proven by `token`, so it is shown
    /// fixed and the account is created verified and signed in.
    public func useVerifiedEmail(_ email: String, token: String) {
        self.email = email
        touched.remove(.email)
        verifiedEmail = email
        emailVerificationToken = token
    }

    /// The text fields in the order the return key moves through them; the address only when it
    /// can be edited (the MBTI picker is no text field).
    public var textFields: [Field] {
        [.username, .email, .password, .passwordConfirmation].filter { $0 != .email || verifiedEmail == nil }
    }

    /// The text field the return key moves to from `field`; `nil` after the last one.
    public func field(after field: Field) -> Field? {
        guard let index = textFields.firstIndex(of: field), index + 1 < textFields.count else { return nil }
        return textFields[index + 1]
    }

    /// The proof of the address is spent or expired (email-first flow): only proving it again helps.
    public var needsNewVerification: Bool {
        guard verifiedEmail != nil, case .failed(.codeRejected) = phase else { return false }
        return true
    }

    /// Whether the request can be sent: every field valid, no unanswered server error, and nothing
    /// sent or accepted yet (a second sign-up would only find its own nickname taken).
    public var canSubmit: Bool {
        canPressSubmit && Field.allCases.allSatisfy { ruleErrors($0).isEmpty && serverErrors[$0] == nil }
    }

    /// Whether the button can be pressed: whenever nothing is on its way or made yet. Pressing it
    /// while a field is wrong sends nothing and shows why (``submitBlockers``).
    public var canPressSubmit: Bool {
        switch phase {
        case .idle, .failed: true
        case .submitting, .codeSent, .signedIn: false
        }
    }

    /// Whether the request is on its way.
    public var isSubmitting: Bool { phase == .submitting }

    /// What was typed besides the address, to keep while the address is proven again.
    public var draft: SignUpDraft {
        var draft = SignUpDraft()
        draft.username = username
        draft.password = password
        draft.passwordConfirmation = passwordConfirmation
        draft.mbti = mbti
        draft.touched = touched.subtracting([.email])
        return draft
    }

    /// Types `draft` back in (the details shown again after the address was proven again): the
    /// fields as they were, their errors showing where they showed before.
    public func restore(_ draft: SignUpDraft) {
        username = draft.username
        password = draft.password
        passwordConfirmation = draft.passwordConfirmation
        mbti = draft.mbti
        touched = draft.touched.union(touched.intersection([.email]))
    }

    /// The messages to show under `field`: none until it is edited or a submit was attempted.
    public func errors(for field: Field) -> [String] {
        let server = serverErrors[field] ?? []
        guard touched.contains(field) || submitAttempted else { return server }
        let local = rules.messages(ruleErrors(field), field: field.wireName, language)
        return local + server.filter { !local.contains($0) }
    }

    /// A message for the whole form when the last submit failed for a reason no field explains.
    public var message: String? {
        guard case .failed(let error) = phase else { return nil }
        if needsNewVerification {
            return language == .ko
                ? "이메일 인증이 만료되었어요. 처음부터 다시 인증해 주세요."
                : "Your email verification has expired. Please verify your address again."
        }
        switch error {
        case .invalidInput(let fields) where fields.keys.allSatisfy({ Field(wireName: $0) != nil }): return nil
        case .conflict(let code) where Self.takenField(code) != nil: return nil
        default: return error.localizedDescription(in: language)
        }
    }

    /// Why `field` breaks the rules right now (whether or not it shows yet).
    public func ruleErrors(_ field: Field) -> [FieldErrorCode] {
        switch field {
        case .username: rules.username(username)
        case .email: rules.email(email)
        case .password: rules.password(password, username: username, email: email)
        case .passwordConfirmation: rules.passwordConfirmation(passwordConfirmation, password: password)
        case .mbti: rules.mbti(mbti)
        }
    }

    /// Fetches `GET /auth/policy` and checks fields against its limits from then on. Without a
    /// reply the built-in rules stay, and the server still checks on submit.
    public func loadPolicy() async {
        if let policy = try? await client.policy() { rules = FormRules(policy: policy) }
    }

    /// Uses `rules` from now on (a policy fetched elsewhere).
    public func use(_ rules: FormRules) { self.rules = rules }

    /// Sends the sign-up when every field is valid; otherwise shows every field's errors.
    public func submit() async {
        submitAttempted = true
        guard canSubmit, let mbti else { return }
        phase = .submitting
        let request = SignUpRequest(
            username: username, email: email, password: password, passwordConfirmation: passwordConfirmation,
            mbti: mbti, emailVerificationToken: emailVerificationToken)
        do {
            switch try await session.signUp(request) {
            case .codeSent(let accepted):
                phase = .codeSent(email: accepted.email, expiresIn: accepted.expiresIn)
            case .signedIn(let pair):
                phase = .signedIn(pair.user)
            }
        } catch let error as AccountError {
            apply(error)
        } catch {
            apply(.storage(SessionManager.storageError(error)))
        }
    }

    /// Shows a refusal: field errors on their fields, everything else on the form.
    func apply(_ error: AccountError) {
        phase = .failed(error)
        switch error {
        case .invalidInput:
            for (field, errors) in error.fieldErrors(as: Field.self) {
                serverErrors[field] = errors.map {
                    $0.message.isEmpty ? rules.message($0.code, field: field.wireName, language) : $0.message
                }
            }
        case .conflict(let code):
            guard let field = Self.takenField(code) else { break }
            serverErrors[field] = [rules.message(.taken, field: field.wireName, language)]
        default:
            break
        }
    }

    /// The field a conflict is about: the nickname or the address is taken.
    private static func takenField(_ code: ErrorCode) -> Field? {
        switch code {
        case .usernameTaken: .username
        case .emailTaken: .email
        default: nil
        }
    }

    /// Back at the form after its code was refused because a newer sign-up of the address
    /// replaced this one (``EmailVerificationFlow/Phase/signUpSuperseded``), maybe someone else's:
    /// the nickname, address and type stay, the password is typed again (it was not kept), and
    /// ``message`` says what happened until the form is sent again.
    public func signUpWasSuperseded() {
        password = ""
        passwordConfirmation = ""
        touched.subtract([.password, .passwordConfirmation])
        submitAttempted = false
        phase = .failed(.conflict(.signUpSuperseded))
    }

    private func edited(_ field: Field) {
        // The proven address is not the user's to change; the token is for it alone.
        if field == .email, let verifiedEmail, email != verifiedEmail { email = verifiedEmail }
        touched.insert(field)
        serverErrors[field] = nil
        // A changed password can make its confirmation's server error stale, and the other way round.
        if field == .password { serverErrors[.passwordConfirmation] = nil }
        if case .failed = phase { phase = .idle }
    }
}
