import AccountAPI
import Foundation
import Observation

/// The proof a change of how the account signs in asks (``StepUpRequirement``), on a screen: the
/// password (an account without one: Apple's sheet), the second factor while it is on (a code or,
/// where it does, a recovery code), and "use a passkey instead" for an account that holds one.
///
/// One block behind every form that makes such a change: ``PasskeyRemovalForm``,
/// ``PasskeyListModel/addition``, ``AppleLinkModel/stepUp``, ``TOTPEnrollmentFlow``,
/// ``SecondFactorDisableForm``, ``RecoveryCodesFlow``, ``PasswordChangeForm`` and
/// ``AccountDeletionForm`` each have one as `proof`; their `submit()` sends it. A refusal of the
/// proof lands on its fields, and when the server asks for more than the form knew (a passkey
/// added or the second factor turned on elsewhere) the form asks for that.
///
/// ```swift
/// let form = SecondFactorDisableForm(session: session)
/// await form.proof.load()                        // what the account holds now
/// form.proof.password = "correct horse battery"  // when form.proof.asksPassword
/// form.proof.useRecoveryCode()
/// form.proof.recoveryCode = "abcde-12345"
/// await form.submit()
/// ```
@MainActor @Observable public final class StepUpForm {
    /// A field of the proof: `.password`, and `.code` or `.recoveryCode`.
    public typealias Field = SecondFactorField

    /// What the change asks of the account, as last known (``load()`` reads it again; the server's
    /// refusals teach it).
    public private(set) var requirement: StepUpRequirement
    /// The account's password, while ``asksPassword``.
    public var password = "" { didSet { refusal.password = nil } }
    /// The second factor typed, and which one.
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
    /// Which second factor is typed; always the authenticator's code where a recovery code does not do.
    public var method: SecondFactorEntry.Method {
        get { offersRecoveryCode ? entry.method : .authenticatorCode }
        set {
            guard newValue == .authenticatorCode || offersRecoveryCode else { return }
            entry.method = newValue
            refusal.code = nil
        }
    }
    /// Whether the person chose "use a passkey instead".
    public private(set) var usesPasskey = false
    /// A request, or a system sheet, is on its way.
    public private(set) var isWorking = false
    /// The session ended meanwhile: show sign-in.
    public private(set) var isSignedOut = false
    private var refusal = SecondFactorRefusal()

    /// The signed-in session.
    public let session: SessionManager
    /// Apple's sheet, which proves an account without a password.
    public let apple: AppleSignInAuthorizer?
    /// The device's passkeys, which prove an account that holds one.
    public let passkeys: PasskeyAuthorizer?

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - requirement: what the change asks of the account.
    ///   - apple: Apple's sheet, for an account without a password.
    ///   - passkeys: the device's passkeys, for an account that holds one.
    public init(session: SessionManager, requirement: StepUpRequirement, apple: AppleSignInAuthorizer? = nil, passkeys: PasskeyAuthorizer? = nil) {
        self.session = session
        self.requirement = requirement
        self.apple = apple
        self.passkeys = passkeys
    }

    /// A proof for `change`, as the session knows the account now
    /// (``SessionManager/currentStepUpRequirement(for:)``; signed out: a password).
    public convenience init(session: SessionManager, change: SensitiveChange, apple: AppleSignInAuthorizer? = nil, passkeys: PasskeyAuthorizer? = nil) {
        let requirement = session.currentStepUpRequirement(for: change)
            ?? StepUpRequirement(change: change, secondFactorOn: false, hasPassword: true, appleLinked: false, holdsPasskey: false)
        self.init(session: session, requirement: requirement, apple: apple, passkeys: passkeys)
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// What proves who the person is: a passkey once chosen, else ``StepUpRequirement/identity``.
    public var identity: StepUpRequirement.Identity { usesPasskey ? .passkey : requirement.identity }

    /// Whether the password field shows.
    public var asksPassword: Bool { identity == .password }

    /// The second factor the proof carries.
    public var secondFactor: StepUpRequirement.SecondFactor { requirement.secondFactor(with: identity) }

    /// Whether the second factor's field shows.
    public var asksSecondFactor: Bool { secondFactor != .none }

    /// Whether "use a recovery code" is offered (not for new recovery codes).
    public var offersRecoveryCode: Bool { secondFactor == .codeOrRecoveryCode }

    /// Whether "use a passkey instead" is offered: the account holds one, the password or Apple
    /// would do too, and the app gave the device's passkeys.
    public var offersPasskey: Bool { passkeys != nil && requirement.acceptsPasskey && requirement.identity != .passkey }

    /// Whether submitting opens a system sheet first (Apple's, or the passkey's): the button says
    /// "Confirm with Apple" or "Confirm with a passkey" then.
    public var confirmsInSheet: Bool { identity != .password }

    /// Whether this app can give the proof the account needs (the authorizer of Apple or of the
    /// passkeys, when those are asked for).
    public var canProve: Bool {
        switch identity {
        case .password: true
        case .apple: apple != nil
        case .passkey: passkeys != nil
        }
    }

    /// Proves with one of the account's passkeys instead of the password or Apple (`true`), or
    /// goes back to them (`false`); only while ``offersPasskey``.
    public func usePasskey(_ use: Bool = true) {
        guard !use || offersPasskey else { return }
        usesPasskey = use
        refusal = SecondFactorRefusal()
    }

    /// Switches the second factor to a recovery code, where one does.
    public func useRecoveryCode() { method = .recoveryCode }

    /// Switches the second factor back to the authenticator app's code.
    public func useAuthenticatorCode() { method = .authenticatorCode }

    /// What the proof asks, in a sentence above its fields.
    public var instructions: String {
        guard canProve else { return StepUpTexts.unavailable(language) }
        switch identity {
        case .password: return (asksSecondFactor ? StepUpTexts.confirmWithPasswordAndCode : StepUpTexts.confirmWithPassword)(language)
        case .apple: return AppleTexts.confirmWithApple(language)
        case .passkey:
            let withoutPassword = !requirement.hasPassword && !requirement.appleLinked
            return (withoutPassword ? PasskeyTexts.confirmWithPasskey : StepUpTexts.confirmWithPasskey)(language)
        }
    }

    /// A message about the proof (the server asked for a passkey, the sheet failed…).
    public var message: String? { refusal.message }

    /// The messages under `field` (the second factor's under the field of the method in use).
    public func errors(for field: Field) -> [String] { refusal.errors(for: field, method: method) }

    /// Whether what the proof asks is typed (the password, a whole second factor), the app can
    /// give it, and nothing is on its way.
    public var isComplete: Bool {
        canProve && !isWorking && (!asksPassword || !password.isEmpty) && (!asksSecondFactor || sentFactor?.isComplete == true)
    }

    /// Reads what the change asks again: the user and the passkeys the account holds
    /// (``SessionManager/stepUpRequirement(for:)``). A failure keeps what is known (the server
    /// will say what it misses); an ended session shows sign-in.
    public func load() async {
        do {
            requirement = try await session.stepUpRequirement(for: requirement.change)
            if !offersPasskey { usesPasskey = false }
        } catch {
            if AccountError(wrapping: error).endsSession { isSignedOut = true }
        }
    }

    // MARK: Sending (the owning form's)

    /// What ``submit(keeping:describing:_:)`` came to.
    enum Outcome {
        /// The change ran.
        case changed
        /// Nothing was sent: a field is missing (its message shows), or the sheet was closed.
        case stopped
        /// The change was refused; the proof's part of it shows on its fields or as ``message``.
        case refused(AccountError)
    }

    /// The second factor as sent: the method in use, or `nil` when none is asked.
    private var sentFactor: SecondFactorEntry? {
        guard asksSecondFactor else { return nil }
        var factor = entry
        factor.method = method
        return factor
    }

    /// Checks what is typed (a message under each missing field), makes the proof (Apple's or the
    /// passkey's sheet first, for those) and runs `change` with it; the fields empty once it ran.
    /// A refusal of the proof shows on its fields; an error about one of the owner's own fields
    /// (wire names in `ownFields`) is left to the owner; any other shows as ``message``, in
    /// `describe`'s words when it has some.
    func submit(
        keeping ownFields: Set<String> = [], describing describe: (AccountError) -> String? = { _ in nil },
        _ change: @MainActor (AccountProof) async throws -> Void
    ) async -> Outcome {
        guard !isWorking else { return .stopped }
        if !canProve { refusal.message = StepUpTexts.unavailable(language) }
        if asksPassword, password.isEmpty { refusal.password = SecondFactorTexts.enterPassword(language) }
        if let factor = sentFactor, !factor.isComplete { refusal.code = factor.requirement(language) }
        guard canProve, refusal.password == nil, refusal.code == nil else { return .stopped }
        let factor = sentFactor
        isWorking = true
        refusal = SecondFactorRefusal()
        defer { isWorking = false }
        do {
            guard let proof = try await makeProof(factor) else { return .stopped }
            try await change(proof)
            clear()
            return .changed
        } catch let failure as AuthorizationError {
            // A closed sheet (the proof's, or the change's own) says nothing.
            if !failure.isCancellation { refusal.message = failure.localizedDescription(in: language) }
            return .stopped
        } catch {
            let error = AccountError(wrapping: error)
            apply(error, sent: factor ?? entry, ownFields: ownFields, describe)
            return .refused(error)
        }
    }

    /// The proof of what is typed, or of the sheet; `nil` when the sheet was closed.
    private func makeProof(_ factor: SecondFactorEntry?) async throws -> AccountProof? {
        switch identity {
        case .password: return AccountProof(.password(password), secondFactor: factor)
        case .apple:
            guard let apple else { return nil }
            return try await session.appleProof(using: apple, secondFactor: factor)
        case .passkey:
            guard let passkeys else { return nil }
            return try await session.passkeyProof(using: passkeys, secondFactor: factor)
        }
    }

    /// Shows a refusal: what the server missed is asked for from now on.
    private func apply(_ error: AccountError, sent: SecondFactorEntry, ownFields: Set<String>, _ describe: (AccountError) -> String?) {
        let missing = error.missingProof
        if !missing.isEmpty {
            requirement.learn(missing)
            if missing.contains(.passkey) || missing.contains(.apple) { usesPasskey = false }
        }
        refusal = SecondFactorRefusal(error, entry: sentFactor ?? sent, language, ownFields: ownFields)
        if refusal.message != nil, let words = describe(error) { refusal.message = words }
        if refusal.endsSession { isSignedOut = true }
    }

    /// Empties the fields after the change ran.
    private func clear() {
        password = ""
        entry = SecondFactorEntry()
        usesPasskey = false
    }
}

extension StepUpForm: Identifiable {
    /// The form itself: one proof a sheet.
    public nonisolated var id: ObjectIdentifier { ObjectIdentifier(self) }
}

/// A form whose change needs a step-up proof, held in ``proof``; its session, language, message
/// and state are the proof's unless the form says otherwise.
@MainActor public protocol StepUpChangeForm: AnyObject {
    /// The proof the change asks.
    var proof: StepUpForm { get }
    /// The signed-in session.
    var session: SessionManager { get }
    /// The language of the messages.
    var language: Language { get }
    /// A message about the whole form.
    var message: String? { get }
    /// A request, or a system sheet, is on its way.
    var isWorking: Bool { get }
    /// The session ended meanwhile: show sign-in.
    var isSignedOut: Bool { get }
}

extension StepUpChangeForm {
    /// The proof's session.
    public var session: SessionManager { proof.session }
    /// The proof's language.
    public var language: Language { proof.language }
    /// The proof's message.
    public var message: String? { proof.message }
    /// Whether the proof's request (or sheet) is on its way.
    public var isWorking: Bool { proof.isWorking }
    /// Whether the session ended while the proof was sent.
    public var isSignedOut: Bool { proof.isSignedOut }
}
