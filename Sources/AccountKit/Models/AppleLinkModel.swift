import AccountAPI
import Foundation
import Observation

/// Sign in with Apple in the profile: whether the account is linked to an Apple ID, linking it
/// and unlinking it (while another way to log in remains), each after the step-up proof in
/// ``stepUp`` (what the account held before: the password, a passkey, or for an account without
/// a password Apple's own sheet), then Apple's sheet for a link.
///
/// ```swift
/// let apple = AppleLinkModel(session: session, authorizer: .platform())
/// apple.show(user)
/// apple.begin(.link)                               // stepUp asks for the proof: show it in a sheet
/// apple.stepUp?.password = "correct horse battery"
/// await apple.confirm()                            // isLinked == true; notice says so
/// ```
@MainActor @Observable public final class AppleLinkModel {
    /// What the person asked for.
    public enum Action: String, Sendable, Hashable {
        /// Linking an Apple ID.
        case link
        /// Unlinking the account's Apple ID.
        case unlink

        /// The change it makes.
        public var change: SensitiveChange { self == .link ? .linkApple : .unlinkApple }
    }

    /// Whether the account is linked to an Apple ID (as last read).
    public private(set) var isLinked = false
    /// Whether the server has Sign in with Apple (its user objects say `apple_linked`); the
    /// profile shows the row only then.
    public private(set) var isOffered = false
    /// The action under way, while its proof is asked for.
    public private(set) var action: Action?
    /// The proof the action under way asks (a sheet shows it); `nil` otherwise.
    public private(set) var stepUp: StepUpForm?
    /// What just succeeded, until the next action.
    public private(set) var notice: String?
    /// The session ended meanwhile: show sign-in.
    public private(set) var isSignedOut = false

    /// The signed-in session.
    public let session: SessionManager
    /// Apple's sheet.
    public let authorizer: AppleSignInAuthorizer
    /// The device's passkeys, which prove an account that holds one.
    public let passkeys: PasskeyAuthorizer?

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - authorizer: Apple's sheet (``AppleSignInAuthorizer/platform(_:)`` on Apple platforms).
    ///   - passkeys: the device's passkeys, for an account that proves itself with one.
    public init(session: SessionManager, authorizer: AppleSignInAuthorizer, passkeys: PasskeyAuthorizer? = nil) {
        self.session = session
        self.authorizer = authorizer
        self.passkeys = passkeys
        if let user = session.currentUser { show(user) }
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// A request, or a sheet, is on its way.
    public var isWorking: Bool { stepUp?.isWorking ?? false }

    /// Follows a newer copy of the signed-in user.
    public func show(_ user: User) {
        isLinked = user.appleLinked == true
        isOffered = user.appleLinked != nil
    }

    /// Starts linking (when not linked) or unlinking (when linked): ``stepUp`` asks for the proof.
    public func begin(_ action: Action) {
        guard action == .link ? !isLinked : isLinked, stepUp == nil || self.action != action else { return }
        notice = nil
        self.action = action
        stepUp = StepUpForm(session: session, change: action.change, apple: authorizer, passkeys: passkeys)
    }

    /// Drops the action under way.
    public func cancel() {
        guard stepUp?.isWorking != true else { return }
        action = nil
        stepUp = nil
    }

    /// Sends the action under way with its proof (a link after Apple's sheet, which changes
    /// nothing when closed); ``stepUp`` ends once it is done.
    public func confirm() async {
        guard let action, let stepUp else { return }
        let (session, authorizer, language) = (session, authorizer, language)
        _ = await stepUp.submit(describing: { Self.describe($0, language) }) { proof in
            switch action {
            case .link:
                guard case .linked(let user) = try await session.linkApple(using: authorizer, proof: proof) else {
                    throw AuthorizationError.cancelled
                }
                self.show(user)
                self.notice = AppleTexts.linked(language)
            case .unlink:
                try await session.unlinkApple(proof: proof)
                self.isLinked = false
                self.notice = AppleTexts.unlinked(language)
            }
            self.action = nil
            self.stepUp = nil
        }
        if stepUp.isSignedOut { isSignedOut = true }
    }

    /// Apple's own words for its refusals.
    private static func describe(_ error: AccountError, _ language: Language) -> String? {
        switch error {
        case .conflict(.lastSignInMethod): AppleTexts.lastSignInMethod(language)
        case .conflict(.appleAlreadyLinked): AppleTexts.alreadyLinked(language)
        default: nil
        }
    }
}
