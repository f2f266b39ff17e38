import AccountStore
import AccountStoreSQLite
import Foundation
import HTTPServer
import Mailer
import Synchronization
import Testing
@testable import AccountCore
@testable import AccountServer

@Suite("5xx replies say why: a reason counted by kind and SQLSTATE, never a message")
struct ServerErrorTests {
    @Test("store errors answer 503 or 500 and are counted by reason; their messages reach neither reply nor metrics")
    func storeErrorsAreCountedByReason() async throws {
        let (app, store, harness) = try await Self.app()
        let secret = "minsu@example.com-row-value"
        let cases: [(StoreError, Int)] = [
            (.unavailable(reason: StoreError.Reason("could not serialize access (\(secret))", sqlState: "40001")), 503),
            (.failure(reason: StoreError.Reason("violates foreign key constraint (\(secret))", sqlState: "23503")), 500),
            (.conflict(field: secret), 500),
            (.unavailable(reason: "store is closed"), 503),
        ]
        for (error, status) in cases {
            store.failNextWrite(with: error)
            let body = Array(#"{"email":"minsu@example.com","purpose":"signup"}"#.utf8)
            let reply = await app.handle(HTTPRequest(method: "POST", path: "/auth/email/code", query: [:], headers: ["Content-Type": "application/json"], body: body))
            #expect(reply.status == status, "\(error)")
            #expect(!String(decoding: reply.body, as: UTF8.self).contains(secret))
            if status == 503 { #expect(reply.headers["Retry-After"] == "1") }
        }
        let text = app.metrics.render(hashQueueLength: 0)
        let samples = try Exposition.parse(text).samples
        #expect(samples[#"http_server_errors_total{reason="store_unavailable",sqlstate="40001"}"#] == 1)
        #expect(samples[#"http_server_errors_total{reason="store_failure",sqlstate="23503"}"#] == 1)
        #expect(samples[#"http_server_errors_total{reason="store_conflict",sqlstate=""}"#] == 1)
        #expect(samples[#"http_server_errors_total{reason="store_unavailable",sqlstate=""}"#] == 1)
        #expect(!text.contains(secret))
        await app.shutdown()
        withExtendedLifetime(harness) {}
    }

    @Test("every error is sorted into one bounded reason")
    func reasons() {
        #expect(ServerErrorReason(StoreError.serializationFailure) == ServerErrorReason(kind: "store_unavailable", sqlState: "40001"))
        #expect(ServerErrorReason(StoreError.failure(reason: "bug")) == ServerErrorReason(kind: "store_failure", sqlState: nil))
        #expect(ServerErrorReason(APIError.serviceUnavailable(retryAfter: 1)) == ServerErrorReason(kind: "service_unavailable", sqlState: nil))
        #expect(ServerErrorReason(APIError.internalError) == ServerErrorReason(kind: "internal_error", sqlState: nil))
        #expect(ServerErrorReason(CocoaError(.fileNoSuchFile)) == ServerErrorReason(kind: "unexpected_error", sqlState: nil))
    }

    @Test("at most 64 reasons are kept apart; the rest are counted as other")
    func reasonsAreBounded() {
        let counts = ServerErrorCounts()
        for index in 0..<100 { counts.record(ServerErrorReason(kind: "store_failure", sqlState: String(format: "XX%03d", index))) }
        counts.record(ServerErrorReason(kind: "store_failure", sqlState: "XX000"))
        let all = counts.all()
        #expect(all.count == ServerErrorCounts.limit)
        #expect(counts.count(.overflow) == 100 - (ServerErrorCounts.limit - 1))
        #expect(counts.count(ServerErrorReason(kind: "store_failure", sqlState: "XX000")) == 2, "a reason already kept still counts")
        #expect(all.reduce(0) { $0 + $1.1 } == 101)
    }

    /// An app over the harness's store, wrapped so its next write can be made to fail.
    static func app() async throws -> (AccountApp, FailingStore, Harness) {
        let harness = try await Harness.make()
        let store = FailingStore(harness.store)
        let configuration = harness.app.services.configuration
        let transport = try FileMailTransport(directory: harness.mailFolder, sender: configuration.mailFrom)
        return (try await AccountApp.make(configuration: configuration, store: store, transport: transport), store, harness)
    }
}

/// A store whose next write throws a chosen error, as a database would.
final class FailingStore: AccountStore {
    private let base: any AccountStore
    private let next = Mutex<StoreError?>(nil)

    init(_ base: any AccountStore) { self.base = base }

    func failNextWrite(with error: StoreError) { next.withLock { $0 = error } }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        if let error = next.withLock({ error in defer { error = nil }; return error }) { throw error }
        return try await base.write(body)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T { try await base.read(body) }
    func ping() async throws { try await base.ping() }
    func migrate() async throws -> Int { try await base.migrate() }
    func rowCounts() async throws -> [String: Int] { try await base.rowCounts() }
    func close() async { await base.close() }
    func whenMailQueued(_ hook: @escaping @Sendable () -> Void) { base.whenMailQueued(hook) }
}
