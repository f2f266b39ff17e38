import AccountAPI
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import AccountKit

/// Two processes (an app and its extension) sharing one credential store: each reads the store
/// again before a refresh, under a lock they share, and takes up the other's newer pair instead
/// of trading a refresh token that is spent already.
@Suite struct SharedSessionTests {
    @Test func twoRealProcessesRefreshingTogetherNeverSignEachOtherOut() async throws {
        let server = try await ServerProcess.start()
        let account = try await server.registered()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shared-session-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = SessionManager(client: server.client(), store: FileCredentialStore(directory: folder))
        try await manager.logIn(account.login)

        // Other user agents, as an app and its widget have: the server's grace repeat (the same
        // pair again for the client that rotated) does not hide a reuse from the other one.
        let helper = Binaries.buildFolder.appendingPathComponent("SharedSessionHelper")
        let start = Date().timeIntervalSince1970 + 2
        let rounds = 15
        let children = try ["MBTI/1.0 (app)", "MBTI/1.0 (widget)"].map { agent in
            try ChildProcess(
                arguments: [server.baseURL.absoluteString, folder.path, agent, "\(rounds)", "\(start)", "150"], binary: helper)
        }
        for child in children {
            let status = await child.exitStatus(timeout: 90)
            for _ in 0..<100 where !(child.standardOutput.isFinished && child.standardError.isFinished) {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(status == ExitStatus(code: 0, signaled: false), "\(child.transcript)")
            #expect(child.standardOutput.text.contains("ok"), "\(child.transcript)")
        }

        // The session lives on: a third manager restores it and the server still knows it.
        let after = SessionManager(client: server.client(), store: FileCredentialStore(directory: folder))
        try await after.restore()
        #expect(try await after.me().username == account.username)
        await server.stop()
        #expect(!server.logs.contains("refresh_token_reused"), "\(server.logs)")
    }

    @Test func aNewerPairAnotherManagerStoredIsTakenUpWithoutARefresh() async throws {
        let server = try await inProcessServer()
        let account = try await server.registered()
        let store = InMemoryCredentialStore()
        let counter = CountingTransport(over: server)
        let app = SessionManager(client: server.client(transport: counter.transport), store: store)
        try await app.logIn(account.login)
        let widget = SessionManager(client: widgetClient(of: server, transport: counter.transport), store: store)
        try await widget.restore()

        try await app.refresh()
        #expect(counter.count("/auth/refresh") == 1)
        // The widget still holds the spent token in memory; it takes up the app's pair instead.
        try await widget.refresh()
        #expect(counter.count("/auth/refresh") == 1)
        #expect(try widget.stored()?.refresh == app.stored()?.refresh)
        #expect(try await widget.me().username == account.username)
        #expect(try await app.me().username == account.username)
    }

    @Test func aStoredPairWhoseAccessTokenIsAboutToExpireIsRefreshedWithItsOwnToken() async throws {
        let server = try await inProcessServer(["--access-ttl", "30"])
        let account = try await server.registered()
        let store = InMemoryCredentialStore()
        let clock = TestClock.atNow()
        let app = SessionManager(client: server.client(), store: store, now: clock.function)
        try await app.logIn(account.login)
        let widget = SessionManager(client: widgetClient(of: server), store: store, now: clock.function)
        try await widget.restore()
        try await app.refresh()
        let appsPair = try #require(try app.stored())
        clock.advance(40)

        _ = try await widget.accessToken()
        let widgetsPair = try #require(try widget.stored())
        #expect(widgetsPair.refresh != appsPair.refresh)
        #expect(widgetsPair.accessExpiresAt > clock.now)
        #expect(try await widget.me().username == account.username)
    }

    @Test func theFileStoresLockKeepsTwoHoldersApart() async throws {
        let folder = try TemporaryFolder()
        let first = FileCredentialStore(directory: folder.url).sharedLock!
        let second = FileCredentialStore(directory: folder.url).sharedLock!
        #expect(first.fileURL.lastPathComponent == "credentials.json.lock")
        let inside = Tally()
        let most = Tally()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lock in [first, second, first, second] {
                group.addTask {
                    try await lock.withLock {
                        let now = inside.add(1)
                        most.raise(to: now)
                        try await Task.sleep(for: .milliseconds(30))
                        inside.add(-1)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(most.value == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: first.fileURL.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func aLockHeldTooLongFailsAndClosesTheFile() async throws {
        let closed = Tally()
        let tries = Tally()
        let busy = LockFileOperations(
            open: { _ in FileHandle.nullDevice },
            tryLock: { _ in tries.add(1); return false },
            release: { _ in Issue.record("never held") },
            close: { _ in closed.add(1) })
        let lock = CrossProcessLock(fileURL: URL(fileURLWithPath: "/nowhere.lock"), timeout: 0.05, operations: busy)
        await #expect(throws: CredentialStoreError.self) { try await lock.withLock { Issue.record("ran without the lock") } }
        #expect(closed.value == 1)
        #expect(tries.value > 1)
    }
}

/// A client with the widget's own User-Agent, as an extension has: the server's grace repeat
/// (the same pair again for the client that rotated) would otherwise hide a reuse.
private func widgetClient(of server: some TestServer, transport: HTTPTransport? = nil) -> AccountClient {
    AccountClient(baseURL: server.baseURL, language: .en, userAgent: "MBTI/1.0 (widget)", transport: transport ?? server.clientTransport)
}

/// A number several tasks change.
private final class Tally: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    @discardableResult func add(_ step: Int) -> Int { count.withLock { $0 += step; return $0 } }
    func raise(to candidate: Int) { count.withLock { $0 = max($0, candidate) } }
}
