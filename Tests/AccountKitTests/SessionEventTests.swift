import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// What ``SessionManager/events()`` says, and when: sign-in, refresh, user updates and every way a
/// session ends, with its reason; the synchronous reads that follow them.
@Suite struct SessionEventTests {
    /// A manager on its own store and clock over the real server.
    private func manager(_ server: InProcessServer, clock: TestClock = TestClock.atNow(), transport: HTTPTransport? = nil) -> SessionManager {
        SessionManager(client: server.client(transport: transport), store: InMemoryCredentialStore(), now: clock.function)
    }

    /// A fresh account on a fresh server, logged in on `clock`; events from the login on.
    private func loggedIn(clock: TestClock = TestClock.atNow()) async throws
        -> (InProcessServer, TestAccount, SessionManager, AsyncStream<SessionEvent>.Iterator)
    {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let session = manager(server, clock: clock)
        try await session.logIn(account.login)
        return (server, account, session, await session.events().makeAsyncIterator())
    }

    @Test func aLoginARefreshAProfileChangeAndALogoutAreAnnouncedInOrder() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let session = manager(server)
        var events = await session.events().makeAsyncIterator()
        #expect(session.currentUser == nil && session.currentState == .unknown)

        let user = try await session.logIn(account.login)
        #expect(await events.next() == .signedIn(user))
        #expect(session.currentUser == user, "readable at once, without awaiting the actor")
        #expect(session.currentState == .signedIn(user))

        let before = try #require(session.accessTokenExpiresAt)
        let oldToken = try await session.accessToken()
        let refreshed = try await session.refresh()
        #expect(refreshed == user)
        #expect(await events.next() == .tokenRefreshed)
        #expect(try await session.accessToken() != oldToken)
        #expect(try #require(session.accessTokenExpiresAt) >= before)

        // The profile changes on another device; this one sees it at its next read.
        let other = manager(server)
        try await other.logIn(account.login)
        let renamed = try await other.updateProfile(UpdateProfileRequest(mbti: .entj))
        #expect(try await session.me() == renamed)
        #expect(await events.next() == .userUpdated(renamed))
        #expect(session.currentUser?.mbti == .entj)

        try await session.logOut()
        #expect(await events.next() == .signedOut(.loggedOut))
        #expect(session.currentUser == nil && session.accessTokenExpiresAt == nil && session.sessionExpiresAt == nil)
    }

    @Test func aSessionEndedElsewhereIsRevokedElsewhere() async throws {
        var (server, account, session, events) = try await loggedIn()
        let other = manager(server)
        try await other.logIn(account.login)
        try await other.endOtherSessions()

        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) { try await session.me() }
        #expect(await events.next() == .signedOut(.revokedElsewhere))
        #expect(try await other.me().username == account.username, "ending the others kept this one")
    }

    @Test func aSessionPastItsRefreshLifetimeExpires() async throws {
        let clock = TestClock.atNow()
        var (_, _, session, events) = try await loggedIn(clock: clock)
        let ends = try #require(session.sessionExpiresAt)
        #expect(ends.timeIntervalSince(clock.now) > 29 * 86_400, "the server's 30 idle days, by the device clock")
        clock.advance(31 * 86_400)

        await #expect(throws: AccountError.sessionExpired) { try await session.me() }
        #expect(await events.next() == .signedOut(.expired))
    }

    @Test func deletingTheAccountIsAnnouncedAsSuch() async throws {
        var (_, account, session, events) = try await loggedIn()
        let user = try #require(session.currentUser)
        try await session.deleteAccount(password: account.password)
        #expect(await events.next() == .userDeleted(user))
        #expect(await events.next() == .signedOut(.accountDeleted))
    }

    @Test func aCompletedPasswordResetIsAnnounced() async throws {
        // One message a minute per address by default; the reset mail follows the sign-up's at once.
        let server = try await inProcessServer(["--mail-interval", "0"])
        let account = try await server.registered()
        let session = manager(server)
        var events = await session.events().makeAsyncIterator()
        try await session.requestPasswordReset(PasswordResetRequest(email: account.email))
        let code = try await server.mail.code(to: account.email, skipping: 1)  // after the sign-up's code
        await #expect(throws: AccountError.self) {
            try await session.confirmPasswordReset(PasswordResetConfirmRequest(email: account.email, code: "000000", newPassword: "a brand new passphrase 7"))
        }
        try await session.confirmPasswordReset(PasswordResetConfirmRequest(email: account.email, code: code, newPassword: "a brand new passphrase 7"))
        #expect(await events.next() == .passwordReset, "only the completed reset is announced")
        try await session.logIn(.identifier(account.username, password: "a brand new passphrase 7"))
        #expect(await events.next() == .signedIn(try #require(session.currentUser)))
    }

    @Test func aStoredSessionThatRanOutIsAnnouncedAsExpiredAtRestore() async throws {
        let store = InMemoryCredentialStore()
        let client = AccountClient(baseURL: offlineURL)
        let session = SessionManager(client: client, store: store)
        let pair = TokenPair(access: "a", refresh: "r", expiresIn: 900, refreshExpiresIn: 3600, user: SessionManager.previewUser)
        try store.store(key: session.credentialKey, value: StoredSession.encoder.encode(StoredSession(pair: pair, receivedAt: Date().addingTimeInterval(-7200))))
        var events = await session.events().makeAsyncIterator()
        #expect(try await session.restore() == .signedOut)
        #expect(await events.next() == .signedOut(.expired))
    }

    @Test func logOutReportsAnUnreachableServerAfterSigningOutHere() async throws {
        let store = InMemoryCredentialStore()
        let session = SessionManager(client: AccountClient(baseURL: offlineURL), store: store)
        try await session.begin(with: TokenPair(access: "a", refresh: "r", expiresIn: 900, refreshExpiresIn: 3600, user: SessionManager.previewUser))
        var events = await session.events().makeAsyncIterator()

        await #expect {
            try await session.logOut()
        } throws: { error in
            guard case AccountError.transport = error else { return false }
            return true
        }
        #expect(await session.state == .signedOut)
        #expect(try store.retrieve(key: session.credentialKey) == nil, "signed out here whatever the server said")
        #expect(await events.next() == .signedOut(.loggedOut))
    }

    @Test func logOutUsesANearlyExpiredTokenAsItIsAndRefreshesOnlyAnExpiredOne() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let check = server.client()

        // 30 s left of 900: a call would refresh first (60 s leeway); logging out does not.
        let clock = TestClock.atNow()
        let counter = CountingTransport(over: server)
        let nearly = manager(server, clock: clock, transport: counter.transport)
        try await nearly.logIn(account.login)
        let token = try await nearly.accessToken()
        clock.advance(870)
        try await nearly.logOut()
        #expect(counter.count("/auth/refresh") == 0)
        #expect(counter.count("/auth/logout") == 1)
        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) { try await check.me(accessToken: token) }

        // Expired by the device clock: the server needs a live token to find the session.
        let later = TestClock.atNow()
        let expiredCounter = CountingTransport(over: server)
        let expired = manager(server, clock: later, transport: expiredCounter.transport)
        try await expired.logIn(account.login)
        later.advance(901)
        try await expired.logOut()
        #expect(expiredCounter.count("/auth/refresh") == 1)
        #expect(expiredCounter.count("/auth/logout") == 1)
        let sessions = try await check.sessions(accessToken: try await check.logIn(account.login).access)
        #expect(sessions.count == 1, "both sessions ended on the server; only the checker's is left")
    }

    @Test func concurrentRefreshCallsShareOneRequest() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let counter = CountingTransport(over: server)
        let session = manager(server, transport: counter.transport)
        try await session.logIn(account.login)
        try await withThrowingTaskGroup(of: User.self) { group in
            for _ in 0..<10 { group.addTask { try await session.refresh() } }
            for try await user in group { #expect(user.username == account.username) }
        }
        #expect(counter.count("/auth/refresh") == 1)
    }

    @Test func refreshWithoutASessionIsNotSignedIn() async throws {
        let session = SessionManager(client: AccountClient(baseURL: offlineURL), store: InMemoryCredentialStore())
        await #expect(throws: AccountError.notSignedIn) { try await session.refresh() }
    }
}
