import AccountAPI
import Foundation
import InProcess
import Synchronization
import TestSupport
import Testing
@testable import AccountKit

/// An installation flag in memory: first launch until marked.
final class TestInstallation: Sendable {
    private let launched: Mutex<Bool>
    init(launched: Bool = false) { self.launched = Mutex(launched) }
    var isMarked: Bool { launched.withLock { $0 } }
    var marker: InstallationMarker {
        InstallationMarker(isFirstLaunch: { !self.isMarked }, markLaunched: { self.launched.withLock { $0 = true } })
    }
}

/// What the root shows at launch: a wait only for a locked store, the login screen with the reason
/// for any other failure, and a session left from before a reinstall checked with the server.
@MainActor @Suite struct AccountLaunchTests {
    static let offline = AccountClient(baseURL: URL(string: "http://127.0.0.1:9")!, language: .en)

    /// A stored session for `user`, as a login would have left it.
    static func storedSession(in store: any CredentialStore, user: User = SessionManager.previewUser) throws {
        let pair = TokenPair(access: "a", refresh: "r", expiresIn: 900, refreshExpiresIn: 3600, user: user)
        try store.store(key: SessionManager.defaultKey(for: offline), value: StoredSession.encoder.encode(StoredSession(pair: pair, receivedAt: Date())))
    }

    @Test func aLockedStoreWaitsQuietlyAndIsReadAgainWhenTheAppBecomesActive() async {
        let store = FlakyCredentialStore()
        store.failEverything(with: .locked)
        let launch = AccountLaunch(session: SessionManager(client: Self.offline, store: store), installation: .never)
        await launch.start()
        #expect(launch.screen == .waiting)
        #expect(launch.message == nil, "a locked device is not an error to show")
        #expect(!launch.canRetry)

        store.failEverything(with: nil)
        await launch.becameActive()
        #expect(launch.screen == .logIn)
        #expect(launch.message == nil, "signed out, nothing went wrong")
    }

    @Test func aStoreThatFailsForGoodShowsLoginWithTheReasonAndARetry() async throws {
        let keychain = FakeKeychain()
        keychain.failEverything(with: KeychainStatus.missingEntitlement)
        let launch = AccountLaunch(session: SessionManager(client: Self.offline, store: keychain.store()), installation: .never)
        await launch.start()
        #expect(launch.screen == .logIn, "not a spinner that waits forever")
        #expect(launch.message == CredentialStoreError.missingEntitlement.localizedDescription(in: .en))
        #expect(launch.canRetry)
        await launch.becameActive()
        #expect(launch.screen == .logIn, "becoming active again does not turn it into a wait")

        keychain.failEverything(with: nil)
        try Self.storedSession(in: keychain.store())
        await launch.retry()
        #expect(launch.screen == .profile(SessionManager.previewUser))
        #expect(launch.message == nil)
        #expect(!launch.canRetry)
    }

    @Test(arguments: [KeychainStatus.userCanceled, KeychainStatus.notAvailable])
    func otherFailuresAreShownToo(status: Int32) async {
        let keychain = FakeKeychain()
        keychain.failEverything(with: status)
        let launch = AccountLaunch(session: SessionManager(client: Self.offline, store: keychain.store()), installation: .never)
        await launch.start()
        #expect(launch.screen == .logIn)
        #expect(launch.message?.isEmpty == false)
    }

    @Test func anOrdinaryLaunchTrustsStorageWithoutTheNetwork() async throws {
        let store = InMemoryCredentialStore()
        try Self.storedSession(in: store)
        let launch = AccountLaunch(session: SessionManager(client: Self.offline, store: store), installation: TestInstallation(launched: true).marker)
        await launch.start()
        #expect(launch.screen == .profile(SessionManager.previewUser))
    }

    @Test func aFirstLaunchThatCannotReachTheServerKeepsTheSessionAndChecksNextTime() async throws {
        let store = InMemoryCredentialStore()
        try Self.storedSession(in: store)
        let installation = TestInstallation()
        let launch = AccountLaunch(session: SessionManager(client: Self.offline, store: store), installation: installation.marker)
        await launch.start()
        #expect(launch.screen == .profile(SessionManager.previewUser))
        #expect(!installation.isMarked)
    }

    @Test func aFreshInstallWithoutASessionIsMarkedAndShowsLogin() async {
        let installation = TestInstallation()
        let launch = AccountLaunch(session: SessionManager(client: Self.offline, store: InMemoryCredentialStore()), installation: installation.marker)
        await launch.start()
        #expect(launch.screen == .logIn)
        #expect(launch.message == nil)
        #expect(installation.isMarked)
    }

    @Test func theStateStreamDrivesTheScreenAndASignInClearsTheMessages() async throws {
        let keychain = FakeKeychain()
        keychain.failEverything(with: KeychainStatus.missingEntitlement)
        let launch = AccountLaunch(session: SessionManager(client: Self.offline, store: keychain.store()), installation: .never)
        await launch.start()
        launch.show(.unknown)
        #expect(launch.screen == .logIn, "the stream's first `unknown` must not hide the failure")
        launch.show(.signedIn(SessionManager.previewUser))
        #expect(launch.screen == .profile(SessionManager.previewUser))
        #expect(launch.message == nil)
        launch.show(.signedOut)
        #expect(launch.screen == .logIn)
        #expect(launch.message == nil)
    }
}

/// A reinstalled app finds the Keychain's session of its earlier installation (iOS keeps the items).
@MainActor @Suite(.serialized) struct ReinstallTests {
    @Test func aSessionTheServerRefusesSignsOutOnTheFirstLaunchAndSaysSo() async throws {
        try await withModelServer { server, client in
            let account = try await server.registered()
            let keychain = FakeKeychain()
            let before = SessionManager(client: client, store: keychain.store())
            _ = try await before.logIn(account.login)
            // While the app was gone, the session ended (logged out everywhere from another device).
            let other = try await client.logIn(account.login)
            try await client.logOut(scope: .global, accessToken: other.access)

            let installation = TestInstallation()
            let launch = AccountLaunch(session: SessionManager(client: client, store: keychain.store()), installation: installation.marker)
            await launch.start()
            #expect(launch.screen == .logIn)
            #expect(launch.message == "You were signed out: the sign-in saved before this app was reinstalled has ended. Please log in again.")
            #expect(keychain.item(account: SessionManager.defaultKey(for: client)) == nil, "the dead session is gone from the Keychain")
            #expect(installation.isMarked)

            // The next launch is an ordinary one, with nothing to say.
            let next = AccountLaunch(session: SessionManager(client: client, store: keychain.store()), installation: installation.marker)
            await next.start()
            #expect(next.screen == .logIn)
            #expect(next.message == nil)
        }
    }

    @Test func anExpiredAccessTokenWhoseRefreshIsRefusedSignsOutToo() async throws {
        // No grace window: presenting the used refresh token again is refused at once.
        try await withModelServer(["--refresh-grace", "0"]) { server, client in
            let account = try await server.registered()
            let keychain = FakeKeychain()
            let before = SessionManager(client: client, store: keychain.store())
            _ = try await before.logIn(account.login)
            let stale = try #require(try before.stored())
            _ = try await client.refresh(stale.refresh)  // used elsewhere; the stored one is spent
            server.clock.advance(1)  // on the server: past a grace of 0 s
            let clock = TestClock.atNow()
            clock.advance(3600)
            let launch = AccountLaunch(
                session: SessionManager(client: client, store: keychain.store(), now: clock.function), installation: TestInstallation().marker)
            await launch.start()
            #expect(launch.screen == .logIn)
            #expect(launch.message?.contains("reinstalled") == true)
        }
    }

    @Test func aSessionTheServerStillKnowsIsRestoredSilently() async throws {
        try await withModelServer { server, client in
            let account = try await server.registered()
            let keychain = FakeKeychain()
            let user = try await SessionManager(client: client, store: keychain.store()).logIn(account.login)
            let installation = TestInstallation()
            let launch = AccountLaunch(session: SessionManager(client: client, store: keychain.store()), installation: installation.marker)
            await launch.start()
            #expect(launch.screen == .profile(user))
            #expect(launch.message == nil)
            #expect(installation.isMarked)
        }
    }
}
