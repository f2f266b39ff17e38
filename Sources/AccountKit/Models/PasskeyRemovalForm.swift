import AccountAPI
import Foundation
import Observation

/// Removing one passkey: the person proves it is them with the account's password (an account
/// without one: with Apple's sheet while Apple is linked, else with one of its passkeys), and the
/// authenticator app's code (or a recovery code) while the second factor is on.
///
/// ```swift
/// let form = passkeys.removal(of: passkey, for: user)
/// form.password = "correct horse battery"
/// await form.submit()                 // isRemoved == true; the list no longer has it
/// ```
@MainActor @Observable public final class PasskeyRemovalForm {
    /// A field of the form: `.password`, and `.code` or `.recoveryCode` while the second factor is on.
    public typealias Field = SecondFactorField

    /// The passkey to remove.
    public let passkey: Passkey
    /// Whether the account proves itself with Apple (it has no password) rather than a password.
    public let provesWithApple: Bool
    /// Whether the account proves itself with one of its passkeys (it has neither a password nor
    /// Apple linked).
    public let provesWithPasskey: Bool
    /// Whether no password is asked for.
    public var provesWithoutPassword: Bool { provesWithApple || provesWithPasskey }
    /// Whether the form asks for the second factor: it is on for the account (or the server said
    /// so, when it was turned on elsewhere).
    public private(set) var asksSecondFactor: Bool

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

    /// The passkey is gone.
    public private(set) var isRemoved = false
    /// A request is on its way.
    public private(set) var isWorking = false
    /// The session ended meanwhile: show sign-in.
    public private(set) var isSignedOut = false
    private var refusal = SecondFactorRefusal()
    /// Told the id of the removed passkey (the list follows).
    @ObservationIgnored var removed: ((UUID) -> Void)?

    /// The signed-in session.
    public let session: SessionManager
    /// Apple's sheet, for an account without a password.
    public let apple: AppleSignInAuthorizer?
    /// The device's passkeys, for an account with neither a password nor Apple.
    public let passkeys: PasskeyAuthorizer?

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - passkey: the passkey to remove.
    ///   - user: the signed-in account: its password (or not) and second factor decide what the form asks.
    ///   - apple: Apple's sheet, which proves an account without a password that has Apple linked.
    ///   - passkeys: the device's passkeys, which prove an account with neither.
    public init(session: SessionManager, passkey: Passkey, user: User, apple: AppleSignInAuthorizer? = nil, passkeys: PasskeyAuthorizer? = nil) {
        self.session = session
        self.passkey = passkey
        self.apple = apple
        self.passkeys = passkeys
        self.asksSecondFactor = user.mfa?.totp == true
        // A server from before `apple_linked` says nothing: Apple, as then.
        self.provesWithApple = user.hasPassword == false && user.appleLinked != false && apple != nil
        self.provesWithPasskey = user.hasPassword == false && !provesWithApple && passkeys != nil
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// What removing means, in a sentence above the fields.
    public var instructions: String {
        PasskeyTexts.removeInstructions(language) + (provesWithApple ? " " + AppleTexts.confirmWithApple(language) : "")
            + (provesWithPasskey ? " " + PasskeyTexts.confirmWithPasskey(language) : "")
    }

    /// A message about the whole form.
    public var message: String? { refusal.message }

    /// The message under `field`.
    public func errors(for field: Field) -> [String] { refusal.errors(for: field, method: entry.method) }

    /// Whether what the form asks is typed and nothing is on its way.
    public var canSubmit: Bool {
        !isRemoved && !isWorking && (provesWithoutPassword || !password.isEmpty) && (!asksSecondFactor || entry.isComplete)
    }

    /// Removes the passkey (after Apple's or the passkey sheet, for an account without a password;
    /// closing it changes nothing).
    public func submit() async {
        guard !isRemoved, !isWorking else { return }
        let entry = entry
        if !provesWithoutPassword, password.isEmpty { refusal.password = SecondFactorTexts.enterPassword(language) }
        if asksSecondFactor, !entry.isComplete { refusal.code = entry.requirement(language) }
        guard refusal.password == nil, refusal.code == nil else { return }
        let factor = asksSecondFactor ? entry : nil
        isWorking = true
        refusal = SecondFactorRefusal()
        defer { isWorking = false }
        do {
            let proof: AccountProof
            if provesWithApple, let apple {
                guard let fromApple = try await session.appleProof(using: apple, secondFactor: factor) else { return }
                proof = fromApple
            } else if provesWithPasskey, let passkeys {
                guard let fromPasskey = try await session.passkeyProof(using: passkeys, secondFactor: factor) else { return }
                proof = fromPasskey
            } else {
                proof = AccountProof(.password(password), secondFactor: factor)
            }
            try await session.removePasskey(id: passkey.id, proof: proof)
            finish()
        } catch AccountError.refused(let problem) where problem.code == .notFound {
            // Removed already (on another device): what the form wanted.
            finish()
        } catch {
            if let failure = error as? AuthorizationError {
                refusal.message = failure.localizedDescription(in: language)
                return
            }
            let error = AccountError(wrapping: error)
            if error.needsSecondFactor { asksSecondFactor = true }
            refusal = SecondFactorRefusal(error, entry: entry, language)
            isSignedOut = refusal.endsSession
        }
    }

    private func finish() {
        password = ""
        entry = SecondFactorEntry()
        isRemoved = true
        removed?(passkey.id)
    }
}

extension PasskeyRemovalForm: Identifiable {
    /// The passkey's id: one removal form a passkey (a sheet's item).
    public nonisolated var id: UUID { passkey.id }
}
