import AccountAPI
import Foundation
import Observation

/// The root of the account screens: reads the stored session at launch and decides between a quiet
/// wait, the login screen and the profile, with a message when something went wrong.
///
/// - Only a locked store (``CredentialStoreError/locked``) waits; ``becameActive()`` reads again.
/// - Any other failure shows the login screen with ``message`` and ``canRetry`` (``retry()``).
/// - On the first launch after an install, a session found in the Keychain (which outlives the
///   app) is checked with the server before it is shown; one the server refuses signs out and
///   ``message`` says why.
///
/// ```swift
/// let launch = AccountLaunch(session: session)
/// await launch.start()
/// // In a view's `.task`, which lasts as long as the view (the loop lasts as long as the session):
/// for await state in await session.stateUpdates() { launch.show(state) }
/// ```
@MainActor @Observable public final class AccountLaunch {
    /// The session state last seen.
    public private(set) var state: SessionManager.State = .unknown
    /// Why reading the store failed, until it works.
    public private(set) var restoreFailure: CredentialStoreError?
    /// A session from before the install is being checked with the server.
    public private(set) var isChecking = false
    /// The session of an earlier installation was refused by the server.
    public private(set) var endedAfterReinstall = false

    /// The app's session.
    public let session: SessionManager
    private let installation: InstallationMarker
    /// A ``start()`` is under way (a launch and an activation can ask at once).
    private var isStarting = false

    /// - Parameters:
    ///   - session: the app's one session manager.
    ///   - installation: tells the first launch after an install; `UserDefaults` by default.
    public init(session: SessionManager, installation: InstallationMarker = .userDefaults()) {
        self.session = session
        self.installation = installation
    }

    /// The language of the messages.
    public var language: Language { session.client.language }

    /// What the root shows now.
    public var screen: RootScreen {
        if isChecking { return .waiting }
        return AccountNavigation.root(for: state, restoreFailure: restoreFailure)
    }

    /// What happened, for the login screen: a store that cannot be used, or a session that ended
    /// with a reinstall; `nil` when the login screen is just the signed-out state.
    public var message: String? {
        if let restoreFailure, !restoreFailure.isTemporary, state == .unknown {
            return restoreFailure.localizedDescription(in: language)
        }
        guard endedAfterReinstall, state == .signedOut else { return nil }
        return language == .ko
            ? "앱을 다시 설치하기 전의 로그인이 만료되어 로그아웃되었어요. 다시 로그인해 주세요."
            : "You were signed out: the sign-in saved before this app was reinstalled has ended. Please log in again."
    }

    /// Whether the login screen offers to read the store again.
    public var canRetry: Bool { screen == .logIn && restoreFailure.map { !$0.isTemporary } == true }

    /// Reads the stored session; on the first launch after an install, checks it with the server.
    public func start() async {
        guard !isStarting else { return }
        isStarting = true
        defer { isStarting = false }
        do {
            state = try await session.restore()
            restoreFailure = nil
        } catch {
            restoreFailure = SessionManager.storageError(error)
            state = await session.state
            return
        }
        guard installation.isFirstLaunch() else { return }
        guard case .signedIn = state else { return installation.markLaunched() }
        isChecking = true
        defer { isChecking = false }
        do {
            _ = try await session.me()
            installation.markLaunched()
        } catch let error as AccountError where error.endsSession {
            endedAfterReinstall = true
            installation.markLaunched()
        } catch {
            // Offline or a server failure: nothing is known yet; the next launch checks again.
        }
        state = await session.state
    }

    /// Reads the store again after a failure (the login screen's "Try again").
    public func retry() async {
        guard state == .unknown else { return }
        await start()
    }

    /// The app became active: a store that was locked may be readable now.
    public func becameActive() async {
        guard state == .unknown else { return }
        await start()
    }

    /// Follows the session's state (from ``SessionManager/stateUpdates()``).
    public func show(_ new: SessionManager.State) {
        state = new
        switch new {
        case .signedIn:
            restoreFailure = nil
            endedAfterReinstall = false
        case .signedOut, .awaitingSecondFactor:
            restoreFailure = nil
        case .unknown:
            break
        }
    }
}
