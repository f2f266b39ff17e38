import AccountAPI
import Foundation
import Observation

/// The last step of Sign in with Apple for a new user: the nickname and MBTI type of the
/// original's sign-up, checked by the same rules as the user types, with the address Apple gave
/// shown (a private relay address included). Sending makes the account, verified, and signs in;
/// pressing the button before both fields are right shows what is missing (``submitBlockers``).
///
/// ``LoginForm`` makes one when Apple's user is new (``LoginForm/appleSignUp``); an app calling
/// ``SessionManager/signInWithApple(using:)`` itself makes one from the outcome's ``AppleSignUp``.
///
/// ```swift
/// if case .profileRequired(let signUp) = try await session.signInWithApple(using: .platform()) {
///     let form = AppleSignUpForm(session: session, signUp: signUp)
///     form.username = "민수"
///     form.mbti = .enfp
///     await form.submit()                 // phase == .signedIn(user)
/// }
/// ```
@MainActor @Observable public final class AppleSignUpForm: SubmittableForm {
    /// A field of the form.
    public enum Field: String, FormField {
        /// The nickname.
        case username
        /// The MBTI type.
        case mbti

        /// The field's name on the wire.
        public var wireName: String { rawValue }
    }

    /// Where the form is.
    public enum Phase: Sendable, Hashable {
        /// Being filled in.
        case idle
        /// The request is on its way.
        case submitting
        /// The account is made and signed in.
        case signedIn(User)
        /// The sign-up is over (its 10 minutes passed, or it was finished already): sign in with
        /// Apple again; ``AppleSignUpForm/message`` says so.
        case expired
        /// Refused or unreachable; field errors are on their fields.
        case failed(AccountError)
    }

    /// The waiting sign-up.
    public let signUp: AppleSignUp
    /// The nickname.
    public var username = "" { didSet { edited(.username) } }
    /// The MBTI type, from ``mbtiChoices``.
    public var mbti: MBTI? { didSet { edited(.mbti) } }

    /// Where the form is.
    public private(set) var phase: Phase = .idle
    /// The rules the fields are checked against; the server's after ``loadPolicy()``.
    public private(set) var rules = FormRules()
    /// Fields the user has edited.
    public private(set) var touched: Set<Field> = []
    /// Whether the user has tried to submit (every field's errors show from then on).
    public private(set) var submitAttempted = false
    private var serverErrors: [Field: String] = [:]

    /// The session the new account signs in.
    public let session: SessionManager
    /// Told when the form signed in or its sign-up is over (the login form follows).
    @ObservationIgnored var finished: ((Phase) -> Void)?

    /// - Parameters:
    ///   - session: the session the account signs in; its client's language is the messages'.
    ///   - signUp: the ``AppleSignInOutcome/profileRequired(_:)`` to finish.
    public init(session: SessionManager, signUp: AppleSignUp) {
        self.session = session
        self.signUp = signUp
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// The address the account gets (Apple's), shown, not edited.
    public var email: String { signUp.email }

    /// A line under the address when it is a private relay one ("Apple forwards mail…"), else `nil`.
    public var emailNote: String? { signUp.isPrivateRelay ? AppleTexts.privateRelay(language) : nil }

    /// What the step asks, in a sentence above the fields.
    public var instructions: String { AppleTexts.completeInstructions(language) }

    /// The MBTI types the picker offers.
    public var mbtiChoices: [MBTI] { rules.mbtiTypes }

    /// Fetches `GET /auth/policy` and checks fields against its limits from then on.
    public func loadPolicy() async {
        if let policy = try? await session.client.policy() { rules = FormRules(policy: policy) }
    }

    /// Uses `rules` from now on (a policy fetched elsewhere).
    public func use(_ rules: FormRules) { self.rules = rules }

    /// Why `field` breaks the rules right now (whether or not it shows yet).
    public func ruleErrors(_ field: Field) -> [FieldErrorCode] {
        switch field {
        case .username: rules.username(username)
        case .mbti: rules.mbti(mbti)
        }
    }

    /// The messages under `field`: none until it is edited or a submit was attempted; the
    /// server's until the field is edited.
    public func errors(for field: Field) -> [String] {
        if let server = serverErrors[field] { return [server] }
        guard touched.contains(field) || submitAttempted else { return [] }
        return rules.messages(ruleErrors(field), field: field.wireName, language)
    }

    /// Whether both fields are valid and nothing is on its way or over.
    public var canSubmit: Bool {
        canPressSubmit && Field.allCases.allSatisfy { ruleErrors($0).isEmpty && serverErrors[$0] == nil }
    }

    /// Whether the button can be pressed: whenever nothing is on its way or over. Pressing it while
    /// a field is wrong sends nothing and shows why (``submitBlockers``).
    public var canPressSubmit: Bool {
        switch phase {
        case .idle, .failed: true
        case .submitting, .signedIn, .expired: false
        }
    }

    /// Whether the request is on its way.
    public var isSubmitting: Bool { phase == .submitting }

    /// A message for the whole form: the sign-up is over, or a refusal no field explains.
    public var message: String? {
        switch phase {
        case .expired: AppleTexts.signUpExpired(language)
        case .failed(let error) where error.fieldErrors(as: Field.self).isEmpty && error != .conflict(.usernameTaken):
            error.localizedDescription(in: language)
        default: nil
        }
    }

    /// Makes the account when both fields are valid; otherwise shows every field's errors.
    public func submit() async {
        submitAttempted = true
        guard canSubmit, let mbti else { return }
        guard !signUp.isExpired(at: session.now()) else { return end(.expired) }
        phase = .submitting
        do {
            let user = try await session.completeAppleSignUp(signUp, username: username, mbti: mbti)
            end(.signedIn(user))
        } catch AccountError.codeRejected {
            end(.expired)
        } catch {
            apply(AccountError(wrapping: error))
        }
    }

    /// Shows a refusal: field errors on their fields, the nickname taken on the nickname.
    func apply(_ error: AccountError) {
        phase = .failed(error)
        for (field, errors) in error.fieldErrors(as: Field.self) {
            serverErrors[field] = errors.first.map { $0.message.isEmpty ? rules.message($0.code, field: field.wireName, language) : $0.message }
        }
        if error == .conflict(.usernameTaken) { serverErrors[.username] = rules.message(.taken, field: "username", language) }
    }

    private func end(_ outcome: Phase) {
        phase = outcome
        finished?(outcome)
    }

    private func edited(_ field: Field) {
        touched.insert(field)
        serverErrors[field] = nil
        if case .failed = phase { phase = .idle }
    }
}

extension AppleSignUpForm: LoginStep {}

extension AppleSignUpForm.Phase: LoginStepOutcome {
    /// Where the login form goes on when the step ends here: signed in, or back at the start
    /// (an expired sign-up with its reason).
    var loginPhase: LoginForm.Phase? {
        switch self {
        case .signedIn(let user): .signedIn(user)
        case .expired: .failed(.codeRejected(.codeExpired))
        case .idle, .submitting, .failed: .idle
        }
    }
}
