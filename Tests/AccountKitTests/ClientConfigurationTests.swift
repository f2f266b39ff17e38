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

/// What a client's configuration adds to each request (extra headers, a timeout), what its
/// logger hears (never a secret), and what an ``AccountError`` tells of the reply behind it.
@Suite struct ClientConfigurationTests {
    /// The requests a transport saw, over the in-process server's.
    final class Recorder: Sendable {
        let requests = Mutex<[URLRequest]>([])
        let base: HTTPTransport
        init(over server: InProcessServer) { base = server.transport }
        var transport: HTTPTransport {
            { [self] request in
                requests.withLock { $0.append(request) }
                return try await base(request)
            }
        }
    }

    @Test func extraHeadersAndTheTimeoutGoWithEveryRequestAndTheSDKsOwnHeadersWin() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let recorder = Recorder(over: server)
        let client = AccountClient(
            baseURL: server.baseURL, language: .ko, userAgent: "Test/1.0",
            additionalHeaders: ["X-Trace-Id": "trace-1", "User-Agent": "ignored", "Accept-Language": "fr"],
            timeout: 7, transport: recorder.transport)
        let pair = try await client.logIn(account.login)
        _ = try await client.me(accessToken: pair.access)

        let requests = recorder.requests.withLock { $0 }
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.value(forHTTPHeaderField: "X-Trace-Id") == "trace-1")
            #expect(request.value(forHTTPHeaderField: "User-Agent") == "Test/1.0")
            #expect(request.value(forHTTPHeaderField: "Accept-Language") == "ko")
            #expect(request.timeoutInterval == 7)
        }
        #expect(requests[1].value(forHTTPHeaderField: "Authorization") == "Bearer \(pair.access)")
        #expect(AccountClient(baseURL: server.baseURL).timeout == 30)
    }

    @Test func theLoggerHearsEveryRequestWithoutItsSecrets() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let heard = Mutex<[RequestLog]>([])
        let client = AccountClient(baseURL: server.baseURL, logger: { entry in heard.withLock { $0.append(entry) } }, transport: server.transport)
        let pair = try await client.logIn(account.login)
        await #expect(throws: AccountError.invalidCredentials) { try await client.logIn(.identifier(account.username, password: "wrong password here")) }
        let offline = AccountClient(baseURL: offlineURL, logger: { entry in heard.withLock { $0.append(entry) } }, transport: { _ in throw URLError(.notConnectedToInternet) })
        await #expect(throws: AccountError.transport(URLError(.notConnectedToInternet))) { try await offline.me(accessToken: pair.access) }

        let entries = heard.withLock { $0 }
        #expect(entries.map(\.method) == ["POST", "POST", "GET"])
        #expect(entries.map(\.path) == ["/auth/login", "/auth/login", "/auth/me"])
        #expect(entries.map(\.status) == [200, 401, nil])
        #expect(entries.map(\.problemCode) == [nil, .invalidCredentials, nil])
        #expect(entries[2].transportFailure == .notConnectedToInternet)
        #expect(entries[1].description.hasPrefix("POST /auth/login → 401 invalid_credentials ("))
        #expect(entries[2].description.hasPrefix("GET /auth/me → no reply"))
        let printed = entries.map { "\($0) \(String(reflecting: $0))" }.joined()
        for secret in [pair.access, pair.refresh, account.password, "wrong password here", account.email] {
            #expect(!printed.contains(secret))
        }
    }

    @Test func aCancelledTaskIsACancelledRequest() async throws {
        let client = AccountClient(baseURL: offlineURL, transport: { _ in throw CancellationError() })
        await #expect(throws: AccountError.transport(URLError(.cancelled))) { try await client.policy() }
    }

    @Test func anErrorTellsTheStatusAndProblemOfTheReplyItCameFrom() async throws {
        let server = try await inProcessServer()
        let client = server.client()
        do {
            try await client.revokeSession(id: UUID(), accessToken: "not a token")
            Issue.record("the server was to refuse the token")
        } catch let error as AccountError {
            #expect(error == .sessionRevoked(.tokenInvalid))
            #expect(error.httpStatus == nil && error.problem == nil, "a named case is the answer itself")
        }
        let html: HTTPTransport = { request in
            (Data("<html>Bad gateway</html>".utf8), HTTPURLResponse(url: request.url!, statusCode: 502, httpVersion: nil, headerFields: nil)!)
        }
        do {
            _ = try await AccountClient(baseURL: offlineURL, transport: html).policy()
            Issue.record("a 502 was to fail")
        } catch let error as AccountError {
            #expect(error == .server(status: 502, problem: nil))
            #expect(error.httpStatus == 502)
        }
        let problem = Problem(
            title: "Not found", status: 404, code: .notFound, detail: "No such thing.", mfaToken: "secret-mfa",
            continuationToken: "secret-continuation", email: "someone@example.com")
        let refused = AccountError.refused(problem)
        #expect(refused.httpStatus == 404)
        #expect(refused.problem?.code == .notFound && refused.problem?.detail == "No such thing.")
        #expect(refused.problem?.mfaToken == nil && refused.problem?.continuationToken == nil && refused.problem?.email == nil)
        #expect(AccountError.undecodableReply(status: 200).httpStatus == 200)
        #expect(AccountError.transport(URLError(.timedOut)).httpStatus == nil)
    }
}
