import AccountAPI
import Foundation
import Observation

/// The profile screen: the signed-in user, editing the nickname and MBTI type, the account's
/// sessions, and logging out.
///
/// ```swift
/// let profile = ProfileModel(session: session)
/// await profile.load()
/// profile.startEditing()
/// profile.draftMBTI = .intj
/// await profile.save()
/// ```
@MainActor @Observable public final class ProfileModel: RequestRunning {
    /// A field of the edit form.
    public enum Field: String, FormField {
        /// The nickname.
        case username
        /// The MBTI type.
        case mbti

        /// The field's name on the wire.
        public var wireName: String { rawValue }
    }

    /// The signed-in user; `nil` before ``load()`` and after the session ends.
    public private(set) var user: User?
    /// Whether the edit fields show.
    public private(set) var isEditing = false
    /// The nickname being edited.
    public var draftUsername = "" { didSet { usernameServerError = nil } }
    /// The MBTI type being edited.
    public var draftMBTI: MBTI? { didSet { mbtiServerError = nil } }
    /// The account's live sessions, newest first, after ``loadSessions()``.
    public private(set) var sessions: [SessionInfo] = []
    /// A request is on its way.
    public internal(set) var isWorking = false
    /// A message about the screen (connection lost, session ended, …).
    public internal(set) var message: String?
    /// The session ended (logged out here, elsewhere, or expired): show sign-in.
    public private(set) var isSignedOut = false
    /// The rules the draft is checked against.
    public private(set) var rules = FormRules()

    private var usernameServerError: String?
    private var mbtiServerError: String?
    /// The signed-in session.
    public let session: SessionManager

    /// - Parameter session: the signed-in session; its client's language is the messages'.
    public init(session: SessionManager) {
        self.session = session
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// The MBTI types the picker offers.
    public var mbtiChoices: [MBTI] { rules.mbtiTypes }

    /// Uses `rules` from now on (a policy fetched elsewhere).
    public func use(_ rules: FormRules) { self.rules = rules }

    /// Messages under `field`: the server's, or the rules' while editing (the nickname's only
    /// while it differs from the saved one).
    public func errors(for field: Field) -> [String] {
        switch field {
        case .username:
            if let usernameServerError { return [usernameServerError] }
            guard isEditing, draftUsername != user?.username else { return [] }
            return rules.messages(rules.username(draftUsername), field: "username", language)
        case .mbti:
            if let mbtiServerError { return [mbtiServerError] }
            guard isEditing else { return [] }
            return rules.messages(rules.mbti(draftMBTI), field: "mbti", language)
        }
    }

    /// Whether the draft changes something, breaks no rule, and nothing is on its way.
    public var canSave: Bool {
        guard isEditing, !isWorking, user != nil, changes != nil else { return false }
        return Field.allCases.allSatisfy { errors(for: $0).isEmpty }
    }

    /// The request that saves the draft: only the fields that changed; `nil` when none did.
    public var changes: UpdateProfileRequest? {
        guard let user else { return nil }
        let username = draftUsername != user.username ? draftUsername : nil
        let mbti = draftMBTI != user.mbti ? draftMBTI : nil
        guard username != nil || mbti != nil else { return nil }
        return UpdateProfileRequest(username: username, mbti: mbti)
    }

    // MARK: Second factor

    /// What the second-factor switch leads to.
    public enum SecondFactorAction: Sendable, Hashable {
        /// Turning it on: ``TOTPEnrollmentFlow``.
        case enroll
        /// Turning it off: ``SecondFactorDisableForm``.
        case disable
    }

    /// The account's second factor as last read; `nil` before ``load()`` or from a server
    /// without second factors (then the switch is not shown).
    public var secondFactor: SecondFactorStatus? { user?.mfa }

    /// Whether the profile shows the second-factor switch (the server has second factors).
    public var offersSecondFactor: Bool { secondFactor != nil }

    /// The switch's state: whether logins need an authenticator code.
    public var isSecondFactorOn: Bool { secondFactor?.totp == true }

    /// Unused recovery codes, while the factor is on.
    public var recoveryCodesLeft: Int? { isSecondFactorOn ? secondFactor?.recoveryCodesLeft : nil }

    /// What flipping the switch leads to.
    public var secondFactorAction: SecondFactorAction { isSecondFactorOn ? .disable : .enroll }

    /// The switch's caption: "On · 8 recovery codes left" or "Off".
    public var secondFactorSummary: String {
        SecondFactorTexts.status(on: isSecondFactorOn, recoveryCodesLeft: secondFactor?.recoveryCodesLeft ?? 0)(language)
    }

    /// A warning when three or fewer recovery codes are left (make a new set: ``RecoveryCodesFlow``).
    public var recoveryCodesWarning: String? {
        guard let left = recoveryCodesLeft, left <= 3 else { return nil }
        return SecondFactorTexts.fewRecoveryCodes(left)(language)
    }

    /// Fetches the user (`GET /auth/me`).
    public func load() async {
        await run { [session] in
            let user = try await session.me()
            self.user = user
            self.isSignedOut = false
        }
    }

    /// Shows a user the app has already (the session's `signedIn` state), before or instead of ``load()``.
    public func show(_ user: User) {
        self.user = user
        isSignedOut = false
    }

    /// Starts editing with the saved values.
    public func startEditing() {
        guard let user else { return }
        draftUsername = user.username
        draftMBTI = user.mbti
        isEditing = true
    }

    /// Drops the draft.
    public func cancelEditing() {
        isEditing = false
        usernameServerError = nil
        mbtiServerError = nil
    }

    /// Saves the draft (`PATCH /auth/me`); refusals land on their fields.
    public func save() async {
        guard canSave, let changes else { return }
        await run { [session] in
            let user = try await session.updateProfile(changes)
            self.user = user
            self.isEditing = false
        }
    }

    /// Logs out this device.
    public func logOut() async { await end(everywhere: false) }

    /// Logs out every device of the account.
    public func logOutEverywhere() async { await end(everywhere: true) }

    /// Fetches the account's sessions (`GET /auth/sessions`).
    public func loadSessions() async {
        await run { [session] in
            let list = try await session.sessions()
            self.sessions = list
        }
    }

    /// The session whose logout waits for the person's yes (``askToRevoke(_:)``); `nil` otherwise.
    public private(set) var revokeCandidate: SessionInfo?

    /// Whether the logout waiting for a yes is this device's: saying yes logs out here.
    public var revokeLogsOutHere: Bool { revokeCandidate?.current == true }

    /// Asks before logging out a device of the sessions list: nothing ends until
    /// ``confirmRevoke()``; ``cancelRevoke()`` keeps it.
    public func askToRevoke(_ id: UUID) {
        revokeCandidate = sessions.first { $0.id == id }
    }

    /// Keeps the session ``askToRevoke(_:)`` asked about.
    public func cancelRevoke() { revokeCandidate = nil }

    /// Ends the session ``askToRevoke(_:)`` asked about (this device's: logs out).
    public func confirmRevoke() async {
        guard let candidate = revokeCandidate else { return }
        revokeCandidate = nil
        await revoke(candidate.id)
    }

    /// Ends one session (`DELETE /auth/sessions/{id}`) at once; ending this device's session logs
    /// out. The screen asks first (``askToRevoke(_:)``).
    public func revoke(_ id: UUID) async {
        if sessions.first(where: { $0.id == id })?.current == true {
            await logOut()
            return
        }
        await run { [session] in
            try await session.revokeSession(id: id)
            self.sessions.removeAll { $0.id == id }
        }
    }

    /// Logs out; signed out here whatever the server said, with its failure as the message.
    private func end(everywhere: Bool) async {
        isWorking = true
        message = nil
        do {
            try await session.logOut(everywhere: everywhere)
        } catch let error as AccountError {
            message = error.localizedDescription(in: language)
        } catch {
            message = AccountError.storage(SessionManager.storageError(error)).localizedDescription(in: language)
        }
        isWorking = false
        signedOut()
    }

    /// Shows a refusal on the field it is about, or on the screen.
    func apply(_ error: AccountError) {
        switch error {
        case .invalidInput:
            let ours = error.fieldErrors(as: Field.self)
            usernameServerError = ours[.username]?.first.map { rules.message(for: $0, field: "username", language) }
            mbtiServerError = ours[.mbti]?.first.map { rules.message(for: $0, field: "mbti", language) }
            if ours.isEmpty { message = error.localizedDescription(in: language) }
        case .conflict(.usernameTaken):
            usernameServerError = rules.message(.taken, field: "username", language)
        default:
            message = error.localizedDescription(in: language)
            if error.endsSession { signedOut() }
        }
    }

    private func signedOut() {
        user = nil
        sessions = []
        revokeCandidate = nil
        isEditing = false
        isSignedOut = true
    }
}
