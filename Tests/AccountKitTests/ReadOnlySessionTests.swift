import AccountAPI
import Foundation
import InProcess
import TestSupport
import Synchronization
import Testing
@testable import AccountKit

/// A store that counts the writes and removals asked of it, over another.
final class WatchedStore: CredentialStore {
    let base: any CredentialStore
    private let changes = Mutex(0)
    init(_ base: any CredentialStore) { self.base = base }

    /// How many writes and removals were asked for.
    var changesAsked: Int { changes.withLock { $0 } }
    var isReadOnly: Bool { base.isReadOnly }
    func store(key: String, value: Data) throws {
        changes.withLock { $0 += 1 }
        try base.store(key: key, value: value)
    }
    func retrieve(key: String) throws -> Data? { try base.retrieve(key: key) }
    func remove(key: String) throws {
        changes.withLock { $0 += 1 }
        try base.remove(key: key)
    }
}

/// A manager over a read-only store (an app extension beside the app): it reads the app's
/// session and takes up the pairs the app stores, but never writes, deletes or refreshes.
@Suite struct ReadOnlySessionTests {
    struct Setup {
        let server: InProcessServer
        let account: TestAccount
        let keychain: FakeKeychain
        let clock: TestClock
        let counter: CountingTransport
        let app: SessionManager
        let widget: SessionManager
        let widgetStore: WatchedStore
    }

    /// The app signed in on a Keychain it writes; the widget over the same items, read-only.
    func setUp() async throws -> Setup {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let keychain = FakeKeychain()
        let clock = TestClock.atNow()
        let counter = CountingTransport(over: server)
        let app = SessionManager(client: server.client(), store: keychain.store(), now: clock.function)
        try await app.logIn(account.login)
        let widgetStore = WatchedStore(keychain.store(readOnly: true))
        let widgetClient = AccountClient(baseURL: server.baseURL, language: .en, userAgent: "MBTI/1.0 (widget)", transport: counter.transport)
        let widget = SessionManager(client: widgetClient, store: widgetStore, now: clock.function)
        return Setup(
            server: server, account: account, keychain: keychain, clock: clock, counter: counter, app: app, widget: widget,
            widgetStore: widgetStore)
    }

    @Test func theWidgetUsesTheAppsSessionAndTakesUpItsNewPairsWithoutRefreshing() async throws {
        let setup = try await setUp()
        #expect(try await setup.widget.restore().user?.username == setup.account.username)
        #expect(try await setup.widget.me().username == setup.account.username)

        // 30 s left: within the leeway, but the widget uses its token to the end.
        setup.clock.advance(870)
        #expect(try await setup.widget.me().username == setup.account.username)

        // Expired, and the app has not refreshed: the widget says so and keeps the session.
        setup.clock.advance(60)
        await #expect(throws: AccountError.storage(.readOnly)) { try await setup.widget.me() }
        #expect(await setup.widget.state.user != nil)
        #expect(setup.counter.count("/auth/refresh") == 0)

        // The app refreshes; the widget takes up its pair.
        try await setup.app.refresh()
        let appsPair = try #require(try setup.app.stored())
        #expect(try await setup.widget.me().username == setup.account.username)
        #expect(try await setup.widget.accessToken() == appsPair.access)
        #expect(setup.counter.count("/auth/refresh") == 0, "the widget never refreshed")
        #expect(setup.widgetStore.changesAsked == 0, "the widget only read the Keychain")
    }

    @Test func aSessionTheServerEndedSignsTheWidgetOutButLeavesTheStoreToTheApp() async throws {
        let setup = try await setUp()
        try await setup.widget.restore()
        let stored = try #require(try setup.app.stored())
        // Ended from another device.
        let other = SessionManager(client: setup.server.client(), store: InMemoryCredentialStore())
        try await other.logIn(setup.account.login)
        try await other.endOtherSessions()

        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) { try await setup.widget.me() }
        #expect(await setup.widget.state == .signedOut)
        #expect(try setup.app.stored() == stored, "the record is the app's to delete")
        #expect(setup.widgetStore.changesAsked == 0)
    }

    @Test func theWidgetCannotSignInOrChangeTheStoredSession() async throws {
        let setup = try await setUp()
        let stored = try #require(try setup.app.stored())
        try await setup.widget.restore()
        await #expect(throws: AccountError.storage(.readOnly)) { try await setup.widget.logIn(setup.account.login) }
        #expect(try setup.app.stored() == stored)
        // The pair the widget could not keep was closed again on the server.
        let sessions = try await setup.app.sessions()
        #expect(sessions.count == 1)

        try? await setup.widget.logOut()
        #expect(await setup.widget.state == .signedOut)
        #expect(try setup.app.stored() == stored, "logging out of the widget leaves the record")
        #expect(setup.widgetStore.changesAsked == 0)
    }

    @Test func aRecordTheWidgetCannotReadIsLeftForTheApp() async throws {
        let keychain = FakeKeychain()
        let writer = keychain.store()
        let widget = SessionManager(client: AccountClient(baseURL: offlineURL), store: keychain.store(readOnly: true))
        try writer.store(key: widget.credentialKey, value: Data("not a record".utf8))
        #expect(try await widget.restore() == .signedOut)
        #expect(keychain.item(account: widget.credentialKey)?.data == Data("not a record".utf8))
    }

    @Test func aWidgetReadsTheSessionOfAnAppThatGuardsItsRefreshToken() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let keychain = FakeKeychain()
        let app = SessionManager(client: server.client(), store: keychain.store(refreshTokenProtection: .userPresence))
        try await app.logIn(account.login)
        let widget = SessionManager(client: server.client(), store: keychain.store(readOnly: true))
        #expect(try await widget.restore().user?.username == account.username)
        #expect(try await widget.me().username == account.username)
        let guardedReads = zip(keychain.calls, keychain.queries).filter { $0.0 == .copy && $0.1.requiresUserPresence }
        #expect(guardedReads.isEmpty, "the widget never asks for the person")
    }
}
