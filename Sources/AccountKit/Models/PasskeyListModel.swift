import AccountAPI
import Foundation
import Observation

/// The profile's passkeys: the account's list, adding one of this device under a name after the
/// step-up proof in ``addition`` (what the account held before it), and the form that removes one
/// (``PasskeyRemovalForm``).
///
/// Closing the system's sheet while adding is no failure: nothing changes and nothing shows.
///
/// ```swift
/// let passkeys = PasskeyListModel(session: session, authorizer: .platform())
/// await passkeys.load()
/// passkeys.startAdding()               // addition asks for the proof: show it in a sheet
/// passkeys.newName = "iPhone"          // suggested from the device
/// passkeys.addition?.password = "correct horse battery"
/// await passkeys.add()                 // passkeys.passkeys has it; passkeys.notice says so
/// let removal = passkeys.removal(of: passkeys.passkeys[0], for: user)
/// ```
@MainActor @Observable public final class PasskeyListModel {
    /// The account's passkeys, oldest first, after ``load()``.
    public private(set) var passkeys: [Passkey] = []
    /// Whether the list was read once.
    public private(set) var isLoaded = false
    /// The new passkey's name; this device's kind at first ("iPhone").
    public var newName = PasskeyName.suggestion { didSet { nameError = nil } }
    /// The proof adding a passkey asks, from ``startAdding()`` until it is added or
    /// ``cancelAdding()``; its refusals (the passkey exists already…) are its ``StepUpForm/message``.
    public private(set) var addition: StepUpForm?
    /// The list is being read.
    private var isLoading = false
    /// A message about the list (connection lost…).
    public private(set) var message: String?
    /// What just succeeded ("Passkey “iPhone” added."), until the next action.
    public private(set) var notice: String?
    /// The session ended meanwhile: show sign-in.
    public private(set) var isSignedOut = false
    private var nameError: String?

    /// The signed-in session.
    public let session: SessionManager
    /// The device's passkeys.
    public let authorizer: PasskeyAuthorizer
    /// Apple's sheet, which proves an account without a password when it adds or removes a passkey.
    public let apple: AppleSignInAuthorizer?

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - authorizer: the device's passkeys (``PasskeyAuthorizer/platform(_:)`` on Apple platforms).
    ///   - apple: Apple's sheet, for an account made with Apple (it has no password).
    public init(session: SessionManager, authorizer: PasskeyAuthorizer, apple: AppleSignInAuthorizer? = nil) {
        self.session = session
        self.authorizer = authorizer
        self.apple = apple
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// The message under the name field: its rule as typed, or the server's refusal.
    public var nameErrors: [String] {
        if let nameError { return [nameError] }
        return PasskeyName.validate(newName).map { PasskeyName.message($0, language) }
    }

    /// A request, or a system sheet, is on its way.
    public var isWorking: Bool { isLoading || addition?.isWorking == true }

    /// Whether the passkey can be added now (a valid name, the proof typed, nothing on its way).
    public var canAdd: Bool { !isLoading && PasskeyName.validate(newName).isEmpty && addition?.isComplete == true }

    /// Reads the account's passkeys (`GET /auth/passkeys`).
    public func load() async {
        await run { [session] in
            let list = try await session.passkeys()
            self.passkeys = list
            self.isLoaded = true
        }
    }

    /// Starts adding a passkey: a name suggested from the device, and ``addition`` asking for the
    /// proof.
    public func startAdding() {
        guard addition == nil else { return }
        newName = PasskeyName.suggestion
        notice = nil
        addition = StepUpForm(session: session, change: .addPasskey, apple: apple, passkeys: authorizer)
    }

    /// Drops the addition under way.
    public func cancelAdding() {
        guard addition?.isWorking != true else { return }
        addition = nil
        nameError = nil
    }

    /// Proves the account (the passkey's or Apple's sheet, for those), makes a passkey on this
    /// device in the system's sheet and adds it to the account under ``newName``.
    public func add() async {
        guard let addition, !addition.isWorking else { return }
        if let problem = PasskeyName.validate(newName).first {
            nameError = PasskeyName.message(problem, language)
            return
        }
        let (session, authorizer, language) = (session, authorizer, language)
        let name = newName.trimmingCharacters(in: .whitespacesAndNewlines)
        let outcome = await addition.submit(keeping: ["name"], describing: { Self.describe($0, language) }) { proof in
            guard case .added(let passkey) = try await session.addPasskey(named: name, using: authorizer, proof: proof) else {
                throw AuthorizationError.cancelled
            }
            self.passkeys.append(passkey)
            self.notice = PasskeyTexts.added(passkey.name)(language)
            self.newName = PasskeyName.suggestion
            self.addition = nil
        }
        if case .refused(let error) = outcome, let problem = error.fieldErrors["name"]?.first {
            nameError = problem.message.isEmpty ? PasskeyName.message(problem.code, language) : problem.message
        }
        if addition.isSignedOut { signedOut() }
    }

    /// The form that removes `passkey`, asking what `user` (the signed-in account) proves itself with.
    public func removal(of passkey: Passkey, for user: User) -> PasskeyRemovalForm {
        let form = PasskeyRemovalForm(session: session, passkey: passkey, user: user, apple: apple, passkeys: authorizer)
        form.removed = { [weak self] id in self?.removed(id) }
        return form
    }

    /// Takes a removed passkey off the list.
    func removed(_ id: UUID) {
        passkeys.removeAll { $0.id == id }
    }

    /// Runs a read with `isWorking` set, and shows its refusal.
    private func run(_ body: () async throws -> Void) async {
        isLoading = true
        message = nil
        notice = nil
        defer { isLoading = false }
        do {
            try await body()
        } catch {
            let error = AccountError(wrapping: error)
            message = error.localizedDescription(in: language)
            if error.endsSession { signedOut() }
        }
    }

    /// The passkey's own words for the refusals of an addition.
    private static func describe(_ error: AccountError, _ language: Language) -> String? {
        switch error {
        case .refused(let problem) where problem.code == .passkeyExists: PasskeyTexts.exists(language)
        case .refused(let problem) where problem.code == .challengeExpired || problem.code == .challengeInvalid: PasskeyTexts.restart(language)
        default: nil
        }
    }

    private func signedOut() {
        isSignedOut = true
        passkeys = []
        addition = nil
    }
}
