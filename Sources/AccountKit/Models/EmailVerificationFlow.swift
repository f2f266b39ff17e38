import AccountAPI
import Foundation
import Observation

/// The email screen: enter an address, get a code mailed, enter it, and come out with a
/// verification token (email-first sign-up, `purpose: .signup`) or a verified account
/// (`purpose: .verify`), signed in when the code completed a details-first sign-up in time.
///
/// The code is sent by itself once all its digits are typed (``verifyIfComplete()``), since a
/// number pad has no return key. "Use another address" (``changeEmail()``) goes back to the address;
/// the resend countdown is kept per address, as the server counts it. After too many wrong tries or
/// once the code expired, verifying is off until a new code is asked for (``needsNewCode``).
///
/// Time is injected, so the resend countdown is a pure function of the clock:
///
/// ```swift
/// let flow = EmailVerificationFlow(session: session)
/// flow.email = "minsu@example.com"
/// await flow.sendCode()                   // phase == .codeSent(expiresAt: …)
/// flow.resendCountdown(at: Date())        // 60, 59, …
/// flow.code = "123456"
/// await flow.verify()                     // phase == .verified(token: …)
/// ```
@MainActor @Observable public final class EmailVerificationFlow {
    /// Where the flow is.
    public enum Phase: Sendable, Hashable {
        /// Asking for the address.
        case enterEmail
        /// A code was mailed; it is good until `expiresAt`.
        case codeSent(expiresAt: Date)
        /// The address is proven; `token` goes into the sign-up request (email first), or the
        /// account is verified and waits for a login (`.verify`, when signing in was not possible).
        case verified(token: String)
        /// The code made a details-first sign-up's account and signed it in (`.verify`): the
        /// session holds it.
        case signedIn(User)
        /// A newer sign-up of the address replaced the one this device made (`.verify`): nothing
        /// was made and the code is spent. ``message`` says so; go back to the sign-up form
        /// (``AccountNavigation/afterVerification(_:purpose:email:)``), whose details stay
        /// (``SignUpForm/signUpWasSuperseded()``), and sign up again.
        case signUpSuperseded
    }

    /// A field of the screen.
    public enum Field: String, FormField {
        /// The address.
        case email
        /// The code.
        case code

        /// The field's name on the wire.
        public var wireName: String { rawValue }
    }

    /// The address the code goes to.
    public var email = "" { didSet { emailError = nil } }
    /// The code from the email.
    ///
    /// Editing clears the code's error, except the one saying the mailed code is spent: that stays
    /// until a new code is asked for, since it explains why verifying is off.
    public var code = "" {
        didSet { if !needsNewCode { codeError = nil } }
    }

    /// Where the flow is.
    public private(set) var phase: Phase = .enterEmail
    /// What is wrong with the address, from the rules or the server.
    private var emailError: String?
    /// What is wrong with the code, from the rules or the server.
    private var codeError: String?
    /// A message about the whole flow (connection lost, too many requests, …).
    public private(set) var message: String?
    /// The code is spent or expired: only a new code can help.
    public private(set) var needsNewCode = false
    /// A request is on its way.
    public private(set) var isWorking = false
    /// When another code may be asked for the current address; `nil` before its first request.
    public var resendAvailableAt: Date? { cooldowns.availableAt(email) }
    /// When another code may be asked for, by address: the server's limit is per address.
    private var cooldowns = CodeCooldowns()
    /// The last code sent for checking, so an unchanged refused code is not sent again by itself.
    private var lastTriedCode: String?
    /// The rules the address and code are checked against; the server's after ``loadPolicy()``.
    public private(set) var rules = FormRules()

    /// Why the code is asked for.
    public let purpose: CodePurpose
    /// The session a `.verify` code signs in, when it completes a sign-up in time.
    public let session: SessionManager
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - session: the app's session; its client's language is the language of every message.
    ///   - purpose: `.signup` for the email-first sign-up, `.verify` for a details-first sign-up
    ///     (or an account) waiting for its code.
    ///   - email: the address, when it is known already (after a sign-up or a refused login).
    ///   - now: the clock.
    public init(
        session: SessionManager, purpose: CodePurpose = .signup, email: String = "",
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.session = session
        self.purpose = purpose
        self.email = email
        self.now = now
    }

    /// The API client.
    public var client: AccountClient { session.client }

    /// The language of the messages.
    public var language: Language { client.language }

    /// The messages under `field`: the rules' or the server's, until the field is edited.
    public func errors(for field: Field) -> [String] {
        switch field {
        case .email: emailError.map { [$0] } ?? []
        case .code: codeError.map { [$0] } ?? []
        }
    }

    /// Whether leaving the screen drops something the person did (ask first): the app's sign-up
    /// (`.signup`) with an address typed or a code sent. Nothing is lost once the address is proven,
    /// or in a `.verify` flow, whose address comes from the login or the sign-up and is asked again.
    public var leavingLosesInput: Bool {
        guard purpose == .signup else { return false }
        switch phase {
        case .codeSent: return true
        case .enterEmail: return !EmailRule.normalize(email).isEmpty || signUpDraft?.isEmpty == false
        case .verified, .signedIn, .signUpSuperseded: return false
        }
    }

    /// The sign-up details typed after this address was proven before, kept while it is proven
    /// again (``SignUpForm/draft``); the details take them back once it is (``SignUpForm/restore(_:)``).
    public var signUpDraft: SignUpDraft?

    /// The verification token, once the code was accepted.
    public var token: String? {
        if case .verified(let token) = phase { return token }
        return nil
    }

    /// Whole seconds until another code may be asked for at `now`; 0 when it may be now.
    public func resendCountdown(at now: Date) -> Int { cooldowns.countdown(email, at: now) }

    /// Whether a code may be asked for now.
    public var canResend: Bool { !isWorking && resendCountdown(at: now()) == 0 }

    /// Whether the code is well formed and can be sent: not while the code in the mail is spent.
    public var canVerify: Bool {
        guard case .codeSent = phase else { return false }
        return !isWorking && !needsNewCode && rules.code(code).isEmpty
    }

    /// Whether every digit of the code is typed (the moment to send it without a return key).
    public var isCodeComplete: Bool { rules.code(code).isEmpty }

    /// What the screen's main button does now.
    public enum Action: Sendable, Equatable {
        /// Mail a code to the address.
        case sendCode
        /// Check the typed code.
        case verify
        /// The code is spent or expired: mail a new one.
        case sendNewCode
    }

    /// The main button's action: send at the address step, verify at the code step, or a new code
    /// once the mailed one is spent.
    public var primaryAction: Action {
        switch phase {
        case .enterEmail: .sendCode
        case .codeSent: needsNewCode ? .sendNewCode : .verify
        case .verified, .signedIn, .signUpSuperseded: .verify
        }
    }

    /// Whether the main button can be pressed now (at `now`, for the resend countdown).
    public func canPerformPrimaryAction(at now: Date) -> Bool {
        switch primaryAction {
        case .sendCode, .sendNewCode: !isWorking && resendCountdown(at: now) == 0
        case .verify: canVerify
        }
    }

    /// Runs the main button's action.
    public func performPrimaryAction() async {
        switch primaryAction {
        case .sendCode, .sendNewCode: await sendCode()
        case .verify: await verify()
        }
    }

    /// Fetches `GET /auth/policy` for the code length and resend cooldown; keeps the defaults
    /// without a reply.
    public func loadPolicy() async {
        if let policy = try? await client.policy() { rules = FormRules(policy: policy) }
    }

    /// Uses `rules` from now on (a policy fetched elsewhere).
    public func use(_ rules: FormRules) { self.rules = rules }

    /// Starts at the code step for a code the server mailed already (a details-first sign-up).
    public func codeWasSent(to email: String, expiresIn: Int) {
        self.email = email
        started(expiresIn: expiresIn)
    }

    /// Goes back to the address step to use another address (the typed address stays, to edit).
    ///
    /// Another address may get a code at once; this one's countdown is remembered if it comes back.
    public func changeEmail() {
        phase = .enterEmail
        code = ""
        codeError = nil
        needsNewCode = false
        message = nil
        lastTriedCode = nil
    }

    /// The screen shows again after the sign-up details were left (their proof ran out): a token
    /// handed on may be spent, so the flow starts again at the address, which stays typed.
    public func reappeared() {
        guard case .verified = phase else { return }
        changeEmail()
    }

    /// Checks the address, then asks the server to mail a code (a new one at the code step).
    /// Does nothing during this address's countdown.
    public func sendCode() async {
        let problems = rules.email(email)
        guard problems.isEmpty else {
            emailError = rules.message(problems[0], field: "email", language)
            return
        }
        guard canResend else { return }
        isWorking = true
        defer { isWorking = false }
        do {
            let sent = try await client.requestEmailCode(EmailCodeRequest(email: email, purpose: purpose))
            started(expiresIn: sent.expiresIn)
        } catch let error as AccountError {
            apply(error)
        } catch {
            apply(.transport(URLError(.unknown)))
        }
    }

    /// Sends the code once all its digits are typed, unless this same code was refused already
    /// or the mailed code is spent; for a field's every change (a number pad has no return key).
    public func verifyIfComplete() async {
        guard isCodeComplete, canVerify, CodeRule.normalize(code) != lastTriedCode else { return }
        await verify()
    }

    /// Checks the code's shape, then sends it with the address.
    public func verify() async {
        guard case .codeSent = phase, !needsNewCode, !isWorking else { return }
        let problems = rules.code(code)
        guard problems.isEmpty else {
            codeError = rules.message(problems[0], field: "code", language)
            return
        }
        lastTriedCode = CodeRule.normalize(code)
        isWorking = true
        defer { isWorking = false }
        do {
            let code = CodeRule.normalize(code)
            // A `.verify` code may complete a details-first sign-up: ask to be signed in with it,
            // so the app need not keep the password. A `.signup` code only proves the address.
            let verified = purpose == .verify
                ? try await session.verifyEmail(email, code: code)
                : try await client.verifyEmail(EmailVerifyRequest(email: email, code: code))
            message = nil
            phase = verified.session.map { .signedIn($0.user) } ?? .verified(token: verified.emailVerificationToken)
        } catch let error as AccountError {
            apply(error)
        } catch {
            apply(.transport(URLError(.unknown)))
        }
    }

    private func started(expiresIn: Int) {
        let start = now()
        phase = .codeSent(expiresAt: start.addingTimeInterval(TimeInterval(expiresIn)))
        cooldowns.wait(rules.resendCooldown, for: email, from: start)
        code = ""
        codeError = nil
        needsNewCode = false
        message = nil
        lastTriedCode = nil
    }

    /// Shows a refusal on the field that caused it, or on the flow.
    func apply(_ error: AccountError) {
        message = nil
        switch error {
        case .invalidInput(let fields):
            let ours = error.fieldErrors(as: Field.self)
            if let first = ours[.email]?.first { emailError = text(first, field: "email") }
            if let first = ours[.code]?.first { codeError = text(first, field: "code") }
            if fields.keys.contains(where: { Field(wireName: $0) == nil }) {
                message = error.localizedDescription(in: language)
            }
        case .conflict(let code) where code == .signUpSuperseded:
            // Nothing to verify any more: the form this code screen came from sends a new sign-up.
            message = error.localizedDescription(in: language)
            phase = .signUpSuperseded
        case .codeRejected(let reason):
            codeError = Messages.detail(reason, language)
            // Spent stays spent until a new code arrives (`started`).
            if reason == .codeExpired || reason == .tooManyAttempts { needsNewCode = true }
        case .rateLimited(let retryAfter):
            let wait = retryAfter ?? rules.resendCooldown
            cooldowns.wait(wait, for: email, from: now())
            message = error.localizedDescription(in: language)
        default:
            message = error.localizedDescription(in: language)
        }
    }

    private func text(_ error: FieldError, field: String) -> String {
        error.message.isEmpty ? rules.message(error.code, field: field, language) : error.message
    }
}
