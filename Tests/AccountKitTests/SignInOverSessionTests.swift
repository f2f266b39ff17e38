import AccountAPI
import Foundation
import InProcess
import TestSupport
import Testing
@testable import AccountKit

/// Signing in while a session is held (a login, a verification that signs in, a passkey) ends
/// the old session on the server and says so (`signedOut(.replacedBySignIn)`, then `signedIn`),
/// while the state goes straight from one user to the other.
@Suite struct SignInOverSessionTests {
    /// Whether `refreshToken` no longer refreshes on `server`.
    func isDead(_ refreshToken: String, on server: InProcessServer) async -> Bool {
        do {
            _ = try await server.client().refresh(refreshToken)
            return false
        } catch let error as AccountError {
            return error.endsSession
        } catch {
            return false
        }
    }

    @Test func aLoginOverASessionEndsTheOldOneAndAnnouncesIt() async throws {
        let server = try await inProcessServer()
        let first = try await server.registered()
        let second = try await server.registered()
        let manager = SessionManager(client: server.client(), store: InMemoryCredentialStore())
        let firstUser = try await manager.logIn(first.login)
        let old = try #require(try manager.stored())
        var events = await manager.events().makeAsyncIterator()
        var states = await manager.stateUpdates().makeAsyncIterator()
        #expect(await states.next() == .signedIn(firstUser))

        let secondUser = try await manager.logIn(second.login)
        #expect(await events.next() == .signedOut(.replacedBySignIn))
        #expect(await events.next() == .signedIn(secondUser))
        #expect(await states.next() == .signedIn(secondUser), "straight to the new user, no signedOut between")
        #expect(await isDead(old.refresh, on: server), "the old session was ended on the server")
        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) { try await server.client().me(accessToken: old.access) }
        #expect(try await manager.me().id == secondUser.id)
    }

    @Test func anOldSessionWhoseAccessTokenExpiredIsEndedWithOneRefresh() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let clock = TestClock.atNow()
        let counter = CountingTransport(over: server)
        let manager = SessionManager(client: server.client(transport: counter.transport), store: InMemoryCredentialStore(), now: clock.function)
        try await manager.logIn(account.login)
        let old = try #require(try manager.stored())
        clock.advance(901)
        server.clock.advance(901)

        try await manager.logIn(account.login)
        #expect(counter.count("/auth/refresh") == 1)
        #expect(counter.count("/auth/logout") == 1)
        #expect(await isDead(old.refresh, on: server))
        let sessions = try await manager.sessions()
        #expect(sessions.count == 1 && sessions.first?.current == true, "only the new session is left")
    }

    @Test func aLoginBeforeRestoreEndsTheStoredSessionWithoutAnnouncingIt() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let store = InMemoryCredentialStore()
        let earlier = SessionManager(client: server.client(), store: store)
        try await earlier.logIn(account.login)
        let old = try #require(try earlier.stored())

        // Another launch logs in without restoring first.
        let manager = SessionManager(client: server.client(), store: store)
        var events = await manager.events().makeAsyncIterator()
        let user = try await manager.logIn(account.login)
        #expect(await events.next() == .signedIn(user), "the app never saw the old session: nothing to sign out of")
        #expect(await isDead(old.refresh, on: server))
        #expect(try manager.stored()?.refresh != old.refresh)
    }

    @Test func aVerificationThatSignsInOverASessionEndsTheOldOne() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let manager = SessionManager(client: server.client(), store: InMemoryCredentialStore())
        try await manager.logIn(account.login)
        let old = try #require(try manager.stored())
        var events = await manager.events().makeAsyncIterator()

        let tag = UUID().uuidString.prefix(8).lowercased()
        let email = "n\(tag)@example.com"
        _ = try await manager.signUp(SignUpRequest(username: "new\(tag)", email: email, password: "correct horse battery staple", mbti: .enfp))
        let verified = try await manager.verifyEmail(email, code: try await server.mail.code(to: email))
        let newUser = try #require(verified.session?.user)
        #expect(await events.next() == .signedOut(.replacedBySignIn))
        #expect(await events.next() == .signedIn(newUser))
        #expect(await isDead(old.refresh, on: server))
        #expect(manager.currentUser?.id == newUser.id)
    }

    @Test func aPasskeyLoginOverASessionEndsTheOldOne() async throws {
        let (server, account, manager) = try await PasskeySessionTests.signedIn()
        let device = SoftwarePasskeys()
        _ = try await manager.addPasskey(named: "iPhone", using: device.authorizer, proof: .password(account.password))
        let old = try #require(try manager.stored())
        var events = await manager.events().makeAsyncIterator()

        guard case .signedIn(let user) = try await manager.logInWithPasskey(using: device.authorizer) else { throw TestFailure("not signed in") }
        #expect(await events.next() == .signedOut(.replacedBySignIn))
        #expect(await events.next() == .signedIn(user))
        #expect(await isDead(old.refresh, on: server))
    }

    @Test func theSamePairBegunAgainIsNotEnded() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let pair = try await server.client().logIn(account.login)
        let manager = SessionManager(client: server.client(), store: InMemoryCredentialStore())
        try await manager.begin(with: pair)
        try await manager.begin(with: pair)
        #expect(try await manager.me().username == account.username, "handing the same pair twice ends nothing")
    }
}
