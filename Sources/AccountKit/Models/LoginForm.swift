import AccountAPI
import Foundation
import Observation

/// The login screen: a nickname or email address and a password, or a passkey
/// (``logInWithPasskey()``), or Sign in with Apple (``signInWithApple()``, or
/// ``startAppleSignIn()`` and ``finishAppleSignIn(_:)`` around `SignInWithAppleButton`).
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
/// with the reason as ``message``. Apple's new user goes on to ``appleSignUp``, the nickname and
/// MBTI type; an address that has a password account already ends in ``Phase/appleLinkRequired``.
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
        /// The system's passkey sheet is up, or its answer on its way to the server.
        case authorizing
        /// The device could not give a passkey or Apple's answer (closing the sheet is no
        /// failure: the form is back at ``idle``); see ``LoginForm/message``.
        case authorizationFailed(AuthorizationError)
        /// Apple's user is new: the account waits for its nickname and MBTI type in ``LoginForm/appleSignUp``.
        case completingAppleSignUp
        /// An account has Apple's address already: log in to it, then link Apple in the profile;
        /// see ``LoginForm/message``.
        case appleLinkRequired
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
    /// Good news for the whole form, no refusal (the address was just verified); it goes with the
    /// next login attempt.
    public private(set) var notice: String?

    /// The login's second step, while it waits for a code (the screen shows it instead of the
    /// password); `nil` otherwise.
    public private(set) var secondFactor: SecondFactorForm?

    /// The session the login starts.
    public let session: SessionManager
    /// The device's passkeys; `nil`: the form offers no passkey login.
    public let passkeys: PasskeyAuthorizer?
    /// Apple's sheet; `nil`: the form offers no Sign in with Apple.
    public let apple: AppleSignInAuthorizer?
    /// The new account's nickname and MBTI type after Sign in with Apple, while it waits for
    /// them (the screen shows it instead of the password); `nil` otherwise.
    public private(set) var appleSignUp: AppleSignUpForm?
    /// The nonce of the Apple request under way (between ``startAppleSignIn()`` and its finish).
    private var appleNonce: AppleNonce?

    /// - Parameters:
    ///   - session: the session the login starts; its client's language is the messages'. A login
    ///     of this session that waits for its second factor already
    ///     (``SessionManager/State/awaitingSecondFactor(_:)``) starts at that step.
    ///   - passkeys: the device's passkeys (``PasskeyAuthorizer/platform(_:)`` on Apple
    ///     platforms), for ``logInWithPasskey()``.
    ///   - apple: Apple's sheet (``AppleSignInAuthorizer/platform(_:)``), for Sign in with Apple.
    public init(session: SessionManager, passkeys: PasskeyAuthorizer? = nil, apple: AppleSignInAuthorizer? = nil) {
        self.session = session
        self.passkeys = passkeys
        self.apple = apple
        if let challenge = session.currentState.challenge { awaitSecondFactor(challenge) }
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// Whether both fields are filled and nothing is on its way.
    public var canSubmit: Bool {
        !isBusy && !identifier.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && !password.isEmpty
    }

    /// Whether the request is on its way.
    public var isSubmitting: Bool { phase == .submitting }

    /// Whether the passkey button shows (the form has the device's passkeys).
    public var offersPasskey: Bool { passkeys != nil }

    /// Whether a passkey login can start now.
    public var canUsePasskey: Bool { offersPasskey && !isBusy }

    /// Whether the Sign in with Apple button shows (the form has Apple's sheet).
    public var offersAppleSignIn: Bool { apple != nil }

    /// Whether Sign in with Apple can start now.
    public var canUseAppleSignIn: Bool { offersAppleSignIn && !isBusy }

    /// Whether a system sheet (passkey, Apple), or its answer, is on its way.
    public var isAuthorizing: Bool { phase == .authorizing }

    /// A login is on its way or waits for its next step.
    private var isBusy: Bool {
        switch phase {
        case .submitting, .authorizing, .awaitingSecondFactor, .completingAppleSignUp: true
        default: false
        }
    }

    /// The address to verify when ``needsEmailVerification`` is set, if the user typed one.
    public var verificationEmail: String? {
        let text = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.contains("@") ? text : nil
    }

    /// The message for the whole form after a refusal.
    public var message: String? {
        if case .authorizationFailed(let failure) = phase { return failure.localizedDescription(in: language) }
        if phase == .appleLinkRequired { return AppleTexts.linkRequired(language) }
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
        notice = nil
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

    /// Logs in with a passkey the person picks in the system's sheet; closing the sheet leaves the
    /// form as it was, with nothing to show.
    public func logInWithPasskey() async {
        guard let passkeys, canUsePasskey else { return }
        notice = nil
        phase = .authorizing
        needsEmailVerification = false
        do {
            switch try await session.logInWithPasskey(using: passkeys) {
            case .signedIn(let user): phase = .signedIn(user)
            case .cancelled: phase = .idle
            }
        } catch let failure as AuthorizationError {
            phase = .authorizationFailed(failure)
        } catch {
            apply(AccountError(wrapping: error))
        }
    }

    /// Signs in with Apple through ``apple``: Apple's sheet, then the server (see ``finishAppleSignIn(_:)``).
    public func signInWithApple() async {
        guard let apple, canUseAppleSignIn else { return }
        let hashedNonce = startAppleSignIn()
        let result: Result<AppleIDAuthorization, AuthorizationError>
        do {
            result = .success(try await apple.authorize(hashedNonce))
        } catch {
            result = .failure(AuthorizationError(error))
        }
        await finishAppleSignIn(result)
    }

    /// Starts a Sign in with Apple attempt with a new nonce kept here; returns its hash for
    /// Apple's request (`SignInWithAppleButton`'s `onRequest`:
    /// `request.configure(hashedNonce: form.startAppleSignIn())`).
    public func startAppleSignIn() -> String {
        let nonce = AppleNonce()
        appleNonce = nonce
        notice = nil
        needsEmailVerification = false
        phase = .authorizing
        return nonce.hashed
    }

    /// Finishes the attempt ``startAppleSignIn()`` began with Apple's answer
    /// (`SignInWithAppleButton`'s `onCompletion`, through `AppleIDAuthorization.result(_:)`):
    /// signed in; on to the second factor, or to ``appleSignUp`` for a new user; or
    /// ``Phase/appleLinkRequired``. A closed sheet leaves the form as it was.
    public func finishAppleSignIn(_ result: Result<AppleIDAuthorization, AuthorizationError>) async {
        guard let nonce = appleNonce else { return }
        appleNonce = nil
        let authorization: AppleIDAuthorization
        switch result {
        case .failure(let failure):
            phase = failure.isCancellation ? .idle : .authorizationFailed(failure)
            return
        case .success(let answer):
            authorization = answer
        }
        do {
            switch try await session.signInWithApple(authorization, nonce: nonce) {
            case .signedIn(let user): phase = .signedIn(user)
            case .profileRequired(let signUp): completeAppleSignUp(signUp)
            case .linkRequired: phase = .appleLinkRequired
            case .cancelled: phase = .idle
            }
        } catch AccountError.secondFactorRequired(let challenge) {
            awaitSecondFactor(challenge)
        } catch {
            apply(AccountError(wrapping: error))
        }
    }

    /// Leaves the nickname step of a Sign in with Apple: nothing is made; the form is back at the start.
    public func cancelAppleSignUp() {
        guard appleSignUp != nil else { return }
        appleSignUp = nil
        phase = .idle
    }

    /// Shows the nickname step for `signUp`, and follows it to its end.
    private func completeAppleSignUp(_ signUp: AppleSignUp) {
        appleSignUp = following(AppleSignUpForm(session: session, signUp: signUp))
        phase = .completingAppleSignUp
    }

    /// Leaves the second step for the password (the waiting login is dropped).
    public func backToPassword() async {
        await secondFactor?.cancel()
    }

    /// Shows the second step for `challenge`, and follows it to its end.
    private func awaitSecondFactor(_ challenge: SecondFactorChallenge) {
        secondFactor = following(SecondFactorForm(session: session, challenge: challenge))
        phase = .awaitingSecondFactor
    }

    /// `step`, told to end here (``stepEnded(_:)``).
    private func following<Step: LoginStep>(_ step: Step) -> Step {
        step.finished = { [weak self] in self?.stepEnded($0.loginPhase) }
        return step
    }

    /// A step shown in place of the password (the second factor, Apple's new account) is over:
    /// the form goes on at `next` without it; `nil` while the step goes on.
    private func stepEnded(_ next: Phase?) {
        guard let next else { return }
        secondFactor = nil
        appleSignUp = nil
        phase = next
    }

    /// The login screen shows again (back from the code screen): a "verify your email" refusal is
    /// stale by then (the address may be verified now), so it goes; other refusals stay.
    public func reappeared() {
        guard phase == .failed(.emailNotVerified) || needsEmailVerification else { return }
        needsEmailVerification = false
        phase = .idle
    }

    /// The login screen shows again after the code screen verified the address: the refusal goes,
    /// and ``notice`` says the address is verified, so logging in works now.
    public func emailWasVerified() {
        reappeared()
        notice = language == .ko
            ? "이메일 주소를 인증했어요. 이제 로그인해 주세요."
            : "Your email address is verified. You can log in now."
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
        case .refused(let problem) where problem.code == .passkeyInvalid: PasskeyTexts.invalidAtLogin(language)
        case .refused(let problem) where problem.code == .challengeExpired || problem.code == .challengeInvalid:
            PasskeyTexts.restart(language)
        case .codeRejected(.codeExpired): AppleTexts.signUpExpired(language)
        // The description words these (seconds to wait, connection lost) for the user already.
        default: error.localizedDescription(in: language)
        }
    }

    private func edited() {
        needsEmailVerification = false
        switch phase {
        case .failed, .authorizationFailed, .appleLinkRequired: phase = .idle
        default: break
        }
    }
}
