import AccountAPI
import Foundation
import Observation

/// The profile's passkeys: the account's list, adding one of this device under a name, and the
/// form that removes one (``PasskeyRemovalForm``).
///
/// Closing the system's sheet while adding is no failure: nothing changes and nothing shows.
///
/// ```swift
/// let passkeys = PasskeyListModel(session: session, authorizer: .platform())
/// await passkeys.load()
/// passkeys.newName = "iPhone"          // suggested from the device
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
    /// A request, or the system's sheet, is on its way.
    public private(set) var isWorking = false
    /// A message about the list (connection lost, the passkey exists already…).
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
    /// Apple's sheet, which proves an account without a password when it removes a passkey.
    public let apple: AppleSignInAuthorizer?

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - authorizer: the device's passkeys (``PasskeyAuthorizer/platform(_:)`` on Apple platforms).
    ///   - apple: Apple's sheet, for removals by an account made with Apple (it has no password).
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

    /// Whether a passkey can be added now (a valid name, nothing on its way).
    public var canAdd: Bool { !isWorking && PasskeyName.validate(newName).isEmpty }

    /// Reads the account's passkeys (`GET /auth/passkeys`).
    public func load() async {
        await run { [session] in
            let list = try await session.passkeys()
            self.passkeys = list
            self.isLoaded = true
        }
    }

    /// Makes a passkey on this device in the system's sheet and adds it to the account under
    /// ``newName``.
    public func add() async {
        guard canAdd else { return }
        let name = newName.trimmingCharacters(in: .whitespacesAndNewlines)
        await run { [session, authorizer] in
            switch try await session.addPasskey(named: name, using: authorizer) {
            case .added(let passkey):
                self.passkeys.append(passkey)
                self.notice = PasskeyTexts.added(passkey.name)(self.language)
                self.newName = PasskeyName.suggestion
            case .cancelled:
                break
            }
        }
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

    /// Runs a request with `isWorking` set, and shows its refusal.
    private func run(_ body: () async throws -> Void) async {
        isWorking = true
        message = nil
        notice = nil
        defer { isWorking = false }
        do {
            try await body()
        } catch let failure as AuthorizationError {
            message = failure.localizedDescription(in: language)
        } catch {
            apply(AccountError(wrapping: error))
        }
    }

    private func apply(_ error: AccountError) {
        switch error {
        case .invalidInput(let fields) where fields["name"] != nil:
            // Shown under the name, and for the list (the name's prompt has closed by then).
            nameError = fields["name"]?.first.map { $0.message.isEmpty ? PasskeyName.message($0.code, language) : $0.message }
            message = nameError
        case .refused(let problem) where problem.code == .passkeyExists:
            message = PasskeyTexts.exists(language)
        case .refused(let problem) where problem.code == .challengeExpired || problem.code == .challengeInvalid:
            message = PasskeyTexts.restart(language)
        default:
            message = error.localizedDescription(in: language)
            if error.endsSession {
                isSignedOut = true
                passkeys = []
            }
        }
    }
}
