import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// With ``RefreshTokenProtection/userPresence`` the refresh token lives in a Keychain item of its
/// own that asks for the person (Face ID, Touch ID, the passcode): launching and calling the API
/// never read it, every refresh does, and a cancelled prompt keeps the session.
@Suite struct RefreshTokenProtectionTests {
    func manager(_ server: InProcessServer, _ keychain: FakeKeychain, clock: TestClock) -> SessionManager {
        SessionManager(client: server.client(), store: keychain.store(refreshTokenProtection: .userPresence), now: clock.function)
    }

    /// The reads of the guarded item in `keychain`'s calls.
    func guardedReads(_ keychain: FakeKeychain) -> Int {
        zip(keychain.calls, keychain.queries).filter { $0.0 == .copy && $0.1.requiresUserPresence }.count
    }

    @Test func theTokenIsKeptApartAndReadOnlyToRefresh() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let keychain = FakeKeychain()
        let clock = TestClock.atNow()
        let app = manager(server, keychain, clock: clock)
        let pair = try await server.client().logIn(account.login)
        try await app.begin(with: pair)

        let key = app.credentialKey
        let record = try #require(keychain.item(account: key))
        let object = try #require(try JSONSerialization.jsonObject(with: record.data) as? [String: Any])
        #expect(object["refresh"] == nil, "the record holds no refresh token")
        #expect(!record.requiresUserPresence, "the record is read without a prompt")
        #expect(keychain.item(account: key + "#refresh") == .init(data: Data(pair.refresh.utf8), accessibility: .afterFirstUnlockThisDeviceOnly, requiresUserPresence: true))
        #expect(await app.session?.refresh == "", "memory does not keep it either")

        // Another launch: restoring and calling ask nothing.
        let relaunched = manager(server, keychain, clock: clock)
        try await relaunched.restore()
        #expect(try await relaunched.me().username == account.username)
        #expect(guardedReads(keychain) == 0)

        // A refresh reads it once and stores the new one in its place.
        clock.advance(900)
        #expect(try await relaunched.me().username == account.username)
        #expect(guardedReads(keychain) == 1)
        let renewed = try #require(keychain.item(account: key + "#refresh"))
        #expect(renewed.requiresUserPresence && renewed.data != Data(pair.refresh.utf8))
        #expect(try await server.client().refresh(String(decoding: renewed.data, as: UTF8.self)).user.username == account.username)
    }

    @Test func aCancelledPromptFailsTheRefreshAndKeepsTheSession() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let keychain = FakeKeychain()
        let clock = TestClock.atNow()
        let app = manager(server, keychain, clock: clock)
        try await app.logIn(account.login)
        let guarded = try #require(keychain.item(account: app.credentialKey + "#refresh"))
        clock.advance(900)

        keychain.fail(.copy, with: KeychainStatus.userCanceled)
        await #expect(throws: AccountError.storage(.accessDenied)) { try await app.me() }
        #expect(await app.state.user?.username == account.username)
        #expect(keychain.item(account: app.credentialKey + "#refresh") == guarded, "nothing was deleted")

        keychain.fail(.copy, with: nil)
        #expect(try await app.me().username == account.username)
    }

    @Test func aRecordWrittenBeforeProtectionWasOnMovesItsTokenApart() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let keychain = FakeKeychain()
        let clock = TestClock.atNow()
        let before = SessionManager(client: server.client(), store: keychain.store(), now: clock.function)
        try await before.logIn(account.login)
        let refresh = try #require(try before.stored()).refresh

        let after = manager(server, keychain, clock: clock)
        try await after.restore()
        #expect(keychain.item(account: after.credentialKey + "#refresh")?.data == Data(refresh.utf8))
        #expect(try after.stored()?.refresh == "", "the record no longer holds it")
        clock.advance(900)
        #expect(try await after.me().username == account.username)
    }

    @Test func signingOutDeletesBothItems() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let keychain = FakeKeychain()
        let app = manager(server, keychain, clock: TestClock.atNow())
        try await app.logIn(account.login)
        #expect(keychain.accounts == [app.credentialKey, app.credentialKey + "#refresh"])
        try await app.logOut()
        #expect(keychain.accounts.isEmpty)
    }
}
