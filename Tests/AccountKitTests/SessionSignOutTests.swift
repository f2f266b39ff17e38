import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// Session-ending answers sign the client out (storage cleared, `signedOut` published); ending
/// other sessions leaves this one alone.
@Suite struct SessionSignOutTests {
    /// A manager on its own store and clock, logged in as `account`.
    private func loggedIn(_ account: TestAccount, on server: InProcessServer) async throws -> (SessionManager, InMemoryCredentialStore, TestClock) {
        let store = InMemoryCredentialStore()
        let clock = TestClock.atNow()
        let manager = SessionManager(client: server.client(), store: store, now: clock.function)
        try await manager.restore()
        try await manager.logIn(account.login)
        return (manager, store, clock)
    }

    @Test func aSessionRevokedElsewhereSignsOutAtItsNextRefresh() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let (first, firstStore, firstClock) = try await loggedIn(account, on: server)
        let (second, _, _) = try await loggedIn(account, on: server)
        var updates = await first.stateUpdates().makeAsyncIterator()
        let user = try #require(try first.stored()).user
        #expect(await updates.next() == .signedIn(user))

        try await second.endOtherSessions()
        #expect(try await second.me().id == user.id)

        firstClock.advance(900)
        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) { try await first.me() }
        #expect(await updates.next() == .signedOut)
        #expect(try firstStore.retrieve(key: first.credentialKey) == nil)
        await #expect(throws: AccountError.notSignedIn) { try await first.accessToken() }
    }

    @Test func aRevokedSessionsAccessTokenSignsOutWithoutARefresh() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let (first, firstStore, _) = try await loggedIn(account, on: server)
        let (second, _, _) = try await loggedIn(account, on: server)
        let others = try await second.sessions().filter { !$0.current }
        #expect(others.count == 1)

        try await second.revokeSession(id: try #require(others.first).id)
        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) { try await first.me() }
        #expect(await first.state == .signedOut)
        #expect(try firstStore.retrieve(key: first.credentialKey) == nil)
        #expect(try await second.sessions().count == 1)
    }

    @Test func aReusedRefreshTokenSignsOut() async throws {
        // Without the grace window, presenting a used refresh token again is reuse at once.
        let server = try await inProcessServer(["--refresh-grace", "0"])
        let account = try await server.registered()
        let (manager, store, clock) = try await loggedIn(account, on: server)
        let copied = try #require(try manager.stored()).refresh
        // Someone else (a stolen copy) uses the refresh token first.
        let stolen = try await server.client().refresh(copied)
        server.clock.advance(1)  // on the server: past a grace of 0 s

        clock.advance(900)
        await #expect(throws: AccountError.sessionRevoked(.refreshTokenReused)) { try await manager.me() }
        #expect(await manager.state == .signedOut)
        #expect(try store.retrieve(key: manager.credentialKey) == nil)
        // Reuse ended the whole session, the thief's pair with it.
        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) {
            try await server.client().refresh(stolen.refresh)
        }
    }

    @Test func deletingTheAccountSignsOut() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let (manager, store, _) = try await loggedIn(account, on: server)

        await #expect(throws: AccountError.invalidCredentials) { try await manager.deleteAccount(password: "not the password at all") }
        #expect(await manager.state != .signedOut)
        try await manager.deleteAccount(password: account.password)
        #expect(await manager.state == .signedOut)
        #expect(try store.retrieve(key: manager.credentialKey) == nil)
        await #expect(throws: AccountError.invalidCredentials) {
            try await server.client().logIn(account.login)
        }
    }

    @Test func changingThePasswordKeepsThisSessionAndEndsTheOthers() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let (first, _, _) = try await loggedIn(account, on: server)
        let (second, _, _) = try await loggedIn(account, on: server)

        try await second.changePassword(newPassword: "another long passphrase 42", proof: .password(account.password))
        #expect(try await second.me().username == account.username)
        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) { try await first.me() }
        #expect(await first.state == .signedOut)
    }

    @Test func updatingTheProfileUpdatesStateAndStorage() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let (manager, _, _) = try await loggedIn(account, on: server)

        let user = try await manager.updateProfile(UpdateProfileRequest(mbti: .estp))
        #expect(user.mbti == .estp)
        #expect(await manager.state == .signedIn(user))
        #expect(try manager.stored()?.user == user)
    }
}
