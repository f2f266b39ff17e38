import AccountAPI
import Foundation
import InProcess
import Synchronization
import TestSupport
import Testing
@testable import AccountKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The stored session is deleted only when the server refuses it for good (revoked, a reused or
/// unknown refresh token, expired); never for a failure that may pass: no network, a timeout, a
/// cancelled request, a server error, a rate limit, a reply that cannot be read.
@Suite struct CredentialDeletionTests {
    /// How the failing transport answers `/auth/refresh`.
    enum Failure: Sendable, CustomTestStringConvertible {
        case urlError(URLError.Code)
        case cancellation
        case reply(status: Int, contentType: String, body: String)

        var testDescription: String {
            switch self {
            case .urlError(let code): "URLError \(code.rawValue)"
            case .cancellation: "CancellationError"
            case .reply(let status, let type, _): "\(status) \(type)"
            }
        }
    }

    /// A transport over the in-process server's that fails `/auth/refresh` as told, until cleared.
    final class FailingRefreshTransport: Sendable {
        let failure = Mutex<Failure?>(nil)
        let base: HTTPTransport
        init(over server: InProcessServer) { base = server.transport }

        var transport: HTTPTransport {
            { [self] request in
                guard request.url?.path == "/auth/refresh", let failure = failure.withLock({ $0 }) else { return try await base(request) }
                switch failure {
                case .urlError(let code): throw URLError(code)
                case .cancellation: throw CancellationError()
                case .reply(let status, let type, let body):
                    let reply = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": type])!
                    return (Data(body.utf8), reply)
                }
            }
        }
    }

    static let transientFailures: [Failure] = [
        .urlError(.notConnectedToInternet), .urlError(.timedOut), .urlError(.networkConnectionLost),
        .urlError(.cannotConnectToHost), .urlError(.cancelled), .cancellation,
        .reply(status: 500, contentType: "application/problem+json",
               body: #"{"type":"about:blank","title":"Internal error","status":500,"code":"internal_error"}"#),
        .reply(status: 502, contentType: "text/html", body: "<html><body>Bad gateway</body></html>"),
        .reply(status: 503, contentType: "text/plain", body: ""),
        .reply(status: 504, contentType: "text/html", body: "<html>Gateway timeout</html>"),
        .reply(status: 429, contentType: "application/problem+json",
               body: #"{"type":"about:blank","title":"Too many requests","status":429,"code":"rate_limited"}"#),
        // A 401 from something in the way that is not the account server (no problem body).
        .reply(status: 401, contentType: "text/html", body: "<html>Unauthorized</html>"),
        .reply(status: 200, contentType: "text/html", body: "<html>captive portal</html>"),
    ]

    @Test(arguments: transientFailures)
    func aFailureThatMayPassKeepsTheStoredSession(failure: Failure) async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let failing = FailingRefreshTransport(over: server)
        let clock = TestClock.atNow()
        let store = InMemoryCredentialStore()
        let manager = SessionManager(client: server.client(transport: failing.transport), store: store, now: clock.function)
        try await manager.logIn(account.login)
        let loggedIn = try #require(try manager.stored())
        var events = await manager.events().makeAsyncIterator()
        clock.advance(900)
        failing.failure.withLock { $0 = failure }

        do {
            _ = try await manager.me()
            Issue.record("the refresh was to fail")
        } catch let error as AccountError {
            #expect(!error.endsSession, "\(error)")
        }
        #expect(await manager.state == .signedIn(loggedIn.user))
        #expect(try manager.stored() == loggedIn, "the pair is still stored")

        // Once the failure passes, the same session goes on.
        failing.failure.withLock { $0 = nil }
        #expect(try await manager.me().username == account.username)
        #expect(await events.next() == .tokenRefreshed, "no signedOut came before it")
        #expect(try manager.stored()?.refresh != loggedIn.refresh)
    }

    @Test func aCallerCancelledDuringTheRefreshLeavesTheNewPairStored() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let clock = TestClock.atNow()
        let base = server.transport
        let slow: HTTPTransport = { request in
            if request.url?.path == "/auth/refresh" { try await Task.sleep(for: .milliseconds(300)) }
            return try await base(request)
        }
        let manager = SessionManager(client: server.client(transport: slow), store: InMemoryCredentialStore(), now: clock.function)
        try await manager.logIn(account.login)
        let loggedIn = try #require(try manager.stored())
        clock.advance(900)

        let call = Task { try await manager.me() }
        try await Task.sleep(for: .milliseconds(50))
        call.cancel()
        _ = try? await call.value
        // The refresh runs to its end for every caller; the session is the new pair.
        let user = try await manager.me()
        #expect(user.username == account.username)
        #expect(await manager.state == .signedIn(user))
        let stored = try #require(try manager.stored())
        #expect(stored.refresh != loggedIn.refresh)
        #expect(try await server.client().refresh(stored.refresh).user.id == user.id, "the stored pair is the live one")
    }

    @Test func aRefreshTokenTheServerDoesNotKnowIsDeleted() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let store = InMemoryCredentialStore()
        let app = SessionManager(client: server.client(), store: store)
        try await app.logIn(account.login)
        let good = try #require(try app.stored())
        let unknown = StoredSession(
            pair: TokenPair(access: good.access, refresh: "not-a-token-the-server-issued", expiresIn: 900, refreshExpiresIn: 3600, user: good.user),
            receivedAt: Date())
        try store.store(key: app.credentialKey, value: StoredSession.encoder.encode(unknown))

        let manager = SessionManager(client: server.client(), store: store)
        try await manager.restore()
        await #expect(throws: AccountError.sessionRevoked(.tokenInvalid)) { try await manager.refresh() }
        #expect(await manager.state == .signedOut)
        #expect(try store.retrieve(key: manager.credentialKey) == nil)
    }

    @Test func aSessionTheServerLetExpireIsDeleted() async throws {
        let server = try await inProcessServer(["--session-idle-ttl", "60"])
        let account = try await server.registered()
        let store = InMemoryCredentialStore()
        // The device clock stands still, so only the server knows the session ran out.
        let manager = SessionManager(client: server.client(), store: store, now: { Date() })
        try await manager.logIn(account.login)
        server.clock.advance(120)

        do {
            try await manager.refresh()
            Issue.record("the server was to refuse the refresh")
        } catch let error as AccountError {
            #expect(error.endsSession, "\(error)")
        }
        #expect(await manager.state == .signedOut)
        #expect(try store.retrieve(key: manager.credentialKey) == nil)
    }

    @Test func aSessionEndedElsewhereIsDeletedButAPairAnotherProcessStoredIsLeft() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let store = InMemoryCredentialStore()
        let widget = SessionManager(client: server.client(), store: store)
        try await widget.logIn(account.login)
        // The app (another process on the same store) signs in again: a new session is stored.
        let app = SessionManager(client: server.client(), store: store)
        try await app.logIn(account.login)
        let appsPair = try #require(try app.stored())

        // The widget's old session was ended by the app's sign-in; the widget signs out but
        // leaves the app's pair alone.
        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) { try await widget.me() }
        #expect(await widget.state == .signedOut)
        #expect(try app.stored() == appsPair)
        #expect(try await app.me().username == account.username)
    }

    @Test func loggingOutDeletesTheRecordEvenWhenAnotherProcessStoredANewerPair() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let store = InMemoryCredentialStore()
        let app = SessionManager(client: server.client(), store: store)
        try await app.logIn(account.login)
        let widget = SessionManager(client: server.client(), store: store)
        try await widget.restore()
        try await widget.refresh()  // the store now holds the widget's newer pair of the same session

        try await app.logOut()
        #expect(try store.retrieve(key: app.credentialKey) == nil, "the person logged out: nothing stays")
        await #expect(throws: AccountError.sessionRevoked(.sessionRevoked)) { try await widget.me() }
    }
}
