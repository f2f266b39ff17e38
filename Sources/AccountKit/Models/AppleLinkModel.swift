import AccountAPI
import Foundation
import Observation

/// Sign in with Apple in the profile: whether the account is linked to an Apple ID, linking it
/// (Apple's sheet), and unlinking it while another way to log in remains.
///
/// ```swift
/// let apple = AppleLinkModel(session: session, authorizer: .platform())
/// apple.show(user)
/// await apple.link()          // isLinked == true; notice says so
/// await apple.unlink()        // refused with a message while Apple is the only way to log in
/// ```
@MainActor @Observable public final class AppleLinkModel {
    /// Whether the account is linked to an Apple ID (as last read).
    public private(set) var isLinked = false
    /// Whether the server has Sign in with Apple (its user objects say `apple_linked`); the
    /// profile shows the row only then.
    public private(set) var isOffered = false
    /// A request, or Apple's sheet, is on its way.
    public private(set) var isWorking = false
    /// A refusal (the Apple ID is another account's, the last way to log in…).
    public private(set) var message: String?
    /// What just succeeded, until the next action.
    public private(set) var notice: String?
    /// The session ended meanwhile: show sign-in.
    public private(set) var isSignedOut = false

    /// The signed-in session.
    public let session: SessionManager
    /// Apple's sheet.
    public let authorizer: AppleSignInAuthorizer

    /// - Parameters:
    ///   - session: the signed-in session; its client's language is the messages'.
    ///   - authorizer: Apple's sheet (``AppleSignInAuthorizer/platform(_:)`` on Apple platforms).
    public init(session: SessionManager, authorizer: AppleSignInAuthorizer) {
        self.session = session
        self.authorizer = authorizer
        if let user = session.currentUser { show(user) }
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// Follows a newer copy of the signed-in user.
    public func show(_ user: User) {
        isLinked = user.appleLinked == true
        isOffered = user.appleLinked != nil
    }

    /// Links the person's Apple ID (Apple's sheet); closing it changes nothing.
    public func link() async {
        guard !isLinked else { return }
        await run { [session, authorizer] in
            guard case .linked(let user) = try await session.linkApple(using: authorizer) else { return }
            self.show(user)
            self.notice = AppleTexts.linked(self.language)
        }
    }

    /// Unlinks Apple; refused while it is the account's only way to log in.
    public func unlink() async {
        guard isLinked else { return }
        await run { [session] in
            try await session.unlinkApple()
            self.isLinked = false
            self.notice = AppleTexts.unlinked(self.language)
        }
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
            let error = AccountError(wrapping: error)
            switch error {
            case .conflict(.lastSignInMethod): message = AppleTexts.lastSignInMethod(language)
            case .conflict(.appleAlreadyLinked): message = AppleTexts.alreadyLinked(language)
            default:
                message = error.localizedDescription(in: language)
                isSignedOut = error.endsSession
            }
        }
    }
}
