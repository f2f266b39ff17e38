import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// What the state says and when: restore, the update stream, and storage that fails.
@Suite struct SessionStateTests {
    @Test func restoreFromALockedStoreStaysUnknownAndThrowsStorage() async throws {
        let store = FlakyCredentialStore()
        store.failEverything(with: .locked)
        let manager = SessionManager(client: AccountClient(baseURL: offlineURL), store: store)

        await #expect(throws: AccountError.storage(.locked)) { try await manager.restore() }
        #expect(await manager.state == .unknown)

        // Unlocked later, the same manager reads storage.
        store.failEverything(with: nil)
        #expect(try await manager.restore() == .signedOut)
    }

    @Test func aStoredSessionRestoresAsSignedInWithoutTheNetwork() async throws {
        let store = InMemoryCredentialStore()
        let user = User(id: UUID(), username: "minsu", email: "m@example.com", emailVerified: true, mbti: .enfp, createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        let session = StoredSession(pair: TokenPair(access: "a", refresh: "r", expiresIn: 900, refreshExpiresIn: 3600, user: user), receivedAt: Date())
        try store.store(key: SessionManager.defaultKey(for: AccountClient(baseURL: offlineURL)), value: StoredSession.encoder.encode(session))

        let manager = SessionManager(client: AccountClient(baseURL: offlineURL), store: store)
        #expect(try await manager.restore() == .signedIn(user))
        #expect(try await manager.accessToken() == "a")
    }

    @Test func aSessionWhoseRefreshTokenRanOutRestoresAsSignedOut() async throws {
        let store = InMemoryCredentialStore()
        let user = User(id: UUID(), username: "minsu", email: "m@example.com", emailVerified: true, mbti: .enfp, createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        let old = StoredSession(pair: TokenPair(access: "a", refresh: "r", expiresIn: 900, refreshExpiresIn: 3600, user: user), receivedAt: Date().addingTimeInterval(-7200))
        try store.store(key: SessionManager.defaultKey(for: AccountClient(baseURL: offlineURL)), value: StoredSession.encoder.encode(old))

        let manager = SessionManager(client: AccountClient(baseURL: offlineURL), store: store)
        #expect(try await manager.restore() == .signedOut)
        #expect(try store.retrieve(key: manager.credentialKey) == nil)
        await #expect(throws: AccountError.notSignedIn) { try await manager.accessToken() }
    }

    @Test func updatesGoUnknownThenSignedInThenSignedOutToEverySubscriber() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let store = InMemoryCredentialStore()
        let manager = SessionManager(client: server.client(), store: store)
        var first = await manager.stateUpdates().makeAsyncIterator()
        var second = await manager.stateUpdates().makeAsyncIterator()

        try await manager.restore()
        let user = try await manager.logIn(account.login)
        let token = try await manager.accessToken()
        try await manager.logOut()

        let expected: [SessionManager.State] = [.unknown, .signedOut, .signedIn(user), .signedOut]
        for state in expected {
            #expect(await first.next() == state)
            #expect(await second.next() == state)
        }
        #expect(try store.retrieve(key: manager.credentialKey) == nil)
        // The server ended the session too: its access token no longer works.
        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) {
            try await server.client().me(accessToken: token)
        }
    }

    @Test func aLateSubscriberGetsTheCurrentStateFirst() async throws {
        let store = InMemoryCredentialStore()
        let manager = SessionManager(client: AccountClient(baseURL: offlineURL), store: store)
        try await manager.restore()
        var updates = await manager.stateUpdates().makeAsyncIterator()
        #expect(await updates.next() == .signedOut)
    }

    @Test func streamsFinishWhenTheManagerGoesAway() async throws {
        var manager: SessionManager? = SessionManager(client: AccountClient(baseURL: offlineURL), store: InMemoryCredentialStore())
        var updates = await manager!.stateUpdates().makeAsyncIterator()
        #expect(await updates.next() == .unknown)
        manager = nil
        #expect(await updates.next() == nil)
    }

    @Test func aLoginThatCannotBeStoredThrowsStorageAndStaysSignedOut() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let store = FlakyCredentialStore()
        let manager = SessionManager(client: server.client(), store: store)
        try await manager.restore()
        store.failEverything(with: .failed("disk full"))

        await #expect(throws: AccountError.storage(.failed("disk full"))) { try await manager.logIn(account.login) }
        #expect(await manager.state == .signedOut)
        await #expect(throws: AccountError.notSignedIn) { try await manager.accessToken() }
    }
}
