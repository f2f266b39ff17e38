import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// Refreshing: one refresh for many callers (over the wire, against the real binary), retry
/// after a 401, and a lost reply that the server's grace window repairs.
@Suite struct SessionRefreshTests {
    @Test func fiftyConcurrentCallsWithAnExpiredAccessTokenMakeExactlyOneRefresh() async throws {
        let server = try await ServerProcess.start(["--access-ttl", "30"])
        let account = try await server.registered()
        let counter = CountingTransport(over: server)
        let clock = TestClock.atNow()
        let store = InMemoryCredentialStore()
        let manager = SessionManager(client: server.client(transport: counter.transport), store: store, now: clock.function)
        try await manager.logIn(account.login)
        let loggedIn = try #require(try manager.stored())
        // 40 s later by the device clock the 30 s token is expired (the server, 60 s lenient, would still take it).
        clock.advance(40)

        let client = manager.client
        let users = try await withThrowingTaskGroup(of: User.self) { group in
            for _ in 0..<50 {
                group.addTask { try await manager.authorized { try await client.me(accessToken: $0) } }
            }
            return try await group.reduce(into: [User]()) { $0.append($1) }
        }

        #expect(users.count == 50)
        #expect(users.allSatisfy { $0.username == account.username })
        #expect(counter.count("/auth/refresh") == 1)
        #expect(counter.count("/auth/me") == 50)
        let refreshed = try #require(try manager.stored())
        #expect(refreshed.refresh != loggedIn.refresh)
        #expect(refreshed.accessExpiresAt > clock.now)
        await server.stop()
    }

    @Test func anAccessTokenTheServerRefusesIsRefreshedOnceAndTheCallRetried() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let counter = CountingTransport(over: server)
        let store = InMemoryCredentialStore()
        let client = server.client(transport: counter.transport)
        let first = SessionManager(client: client, store: store)
        try await first.logIn(account.login)
        // Spoil the stored access token; the device clock still thinks it is good for 15 minutes.
        let good = try #require(try first.stored())
        let spoiled = StoredSession(
            pair: TokenPair(access: good.access + "x", refresh: good.refresh, expiresIn: 900, refreshExpiresIn: 3600, user: good.user),
            receivedAt: Date())
        try store.store(key: first.credentialKey, value: StoredSession.encoder.encode(spoiled))

        let manager = SessionManager(client: client, store: store)
        let user = try await manager.me()

        #expect(user.username == account.username)
        #expect(counter.count("/auth/refresh") == 1)
        #expect(counter.count("/auth/me") == 2)
        #expect(await manager.state == .signedIn(user))
        #expect(try manager.stored()?.refresh != good.refresh)
    }

    @Test func aLostRefreshReplyDoesNotSignOutAndTheRetryGetsTheSamePair() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let counter = CountingTransport(over: server)
        let clock = TestClock.atNow()
        let store = InMemoryCredentialStore()
        let manager = SessionManager(client: server.client(transport: counter.transport), store: store, now: clock.function)
        try await manager.logIn(account.login)
        let loggedIn = try #require(try manager.stored())
        clock.advance(900)
        counter.loseRefreshReplies(1)

        await #expect(throws: AccountError.transport(URLError(.networkConnectionLost))) { try await manager.me() }
        #expect(await manager.state == .signedIn(loggedIn.user))
        #expect(try manager.stored() == loggedIn)

        // The retry presents the same (already used) refresh token within the grace window.
        let user = try await manager.me()
        #expect(user.username == account.username)
        #expect(counter.count("/auth/refresh") == 2)
        #expect(await manager.state == .signedIn(user))
        let refreshed = try #require(try manager.stored())
        #expect(refreshed.refresh != loggedIn.refresh)

        // The pair from the grace window is a real one: it refreshes again normally.
        clock.advance(900)
        _ = try await manager.me()
        #expect(counter.count("/auth/refresh") == 3)
    }
}
