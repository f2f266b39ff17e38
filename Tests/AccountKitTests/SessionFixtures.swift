import AccountAPI
import Foundation
import InProcess
import Synchronization
import TestSupport
@testable import AccountKit
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TestServer {
    /// How AccountKit's client reaches this server: the in-process transport, or `nil` (its own
    /// URLSession, over a real socket) for the binary.
    var clientTransport: HTTPTransport? { (self as? InProcessServer)?.transport }

    /// A client of this server (through `transport` instead, when given).
    func client(language: Language = .en, transport: HTTPTransport? = nil) -> AccountClient {
        AccountClient(baseURL: baseURL, language: language, transport: transport ?? clientTransport)
    }
}

/// A fresh app in this process for one test, with its clock at the real time now.
func inProcessServer(_ options: [String] = [], clock: TestClock = TestClock.atNow()) async throws -> InProcessServer {
    try await InProcessServer.start(options, clock: clock)
}

/// A transport that counts requests by path and can lose one refresh reply, over `server`'s own.
final class CountingTransport: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    private let repliesToLose = Mutex(0)
    private let base: HTTPTransport

    init(over server: some TestServer) {
        base = server.clientTransport ?? { request in try await URLSession.shared.data(for: request) }
    }

    /// After this, the next `count` replies to `/auth/refresh` are dropped after the server
    /// answered, as if the connection broke on the way back.
    func loseRefreshReplies(_ count: Int) { repliesToLose.withLock { $0 = count } }

    /// How many requests went to `path`.
    func count(_ path: String) -> Int { counts.withLock { $0[path, default: 0] } }

    var transport: HTTPTransport {
        { [self] request in
            let path = request.url?.path ?? ""
            counts.withLock { $0[path, default: 0] += 1 }
            let reply = try await base(request)
            let lose = path == "/auth/refresh" && repliesToLose.withLock { remaining in
                guard remaining > 0 else { return false }
                remaining -= 1
                return true
            }
            if lose { throw URLError(.networkConnectionLost) }
            return reply
        }
    }
}

/// A credential store whose operations fail on demand (a locked Keychain, a full disk).
final class FlakyCredentialStore: CredentialStore {
    let inner = InMemoryCredentialStore()
    private let failure = Mutex<CredentialStoreError?>(nil)

    func failEverything(with error: CredentialStoreError?) { failure.withLock { $0 = error } }

    func store(key: String, value: Data) throws {
        if let error = failure.withLock({ $0 }) { throw error }
        try inner.store(key: key, value: value)
    }
    func retrieve(key: String) throws -> Data? {
        if let error = failure.withLock({ $0 }) { throw error }
        return try inner.retrieve(key: key)
    }
    func remove(key: String) throws {
        if let error = failure.withLock({ $0 }) { throw error }
        try inner.remove(key: key)
    }
}

extension TestAccount {
    /// The SDK's login by this account's nickname.
    var login: LoginRequest { .identifier(username, password: password) }
}

extension SessionManager {
    /// The stored session, read straight from the manager's store.
    nonisolated func stored() throws -> StoredSession? {
        try store.retrieve(key: credentialKey).map { try StoredSession.decoder.decode(StoredSession.self, from: $0) }
    }

    /// The key a manager over `client` with the default namespace keeps its session under.
    static func defaultKey(for client: AccountClient) -> String { defaultNamespace(for: client.baseURL) + "/session" }
}

extension SessionManager {
    /// A manager over `client` that keeps its session in memory: what the flow models take.
    static func inMemory(_ client: AccountClient) -> SessionManager {
        SessionManager(client: client, store: InMemoryCredentialStore())
    }
}

/// A client of a server that is not there (port 9, discard), for models tested without one.
let offlineURL = URL(string: "http://127.0.0.1:9")!
