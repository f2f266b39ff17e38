import AccountStore
import AccountStorePostgres
import Foundation
import TestSupport
import Testing

/// Two stores on one database stand for two servers behind a load balancer: each race has
/// exactly one winner, and counters lose no increment.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct PostgresTwoServerTests {
    /// Runs `body` with two migrated stores on one new database.
    private func withTwoServers(_ body: (PostgresAccountStore, PostgresAccountStore) async throws -> Void) async throws {
        try await PostgresTestServer.withDatabase { url in
            let a = try PostgresAccountStore(url: url)
            let b = try PostgresAccountStore(url: url)
            // Both migrate at once, as two servers starting together would; the advisory lock
            // lets one create the schema and the other find it done.
            async let versionA = a.migrate()
            async let versionB = b.migrate()
            #expect(try await [versionA, versionB] == [PostgresAccountStore.schemaVersion, PostgresAccountStore.schemaVersion])
            try await body(a, b)
            await a.close()
            await b.close()
        }
    }

    @Test func appleIDLinkedOnceContinuationTakenOnceAndIdentityTokenUsedOnceAcrossServers() async throws {
        try await withTwoServers { a, b in try await StoreConformance.appleRaces(a, b) }
    }

    @Test func refreshGenerationRotatedOnceAcrossServers() async throws {
        try await withTwoServers { a, b in
            let mina = Fixture.user("Mina")
            let session = Fixture.session(of: mina)
            try await a.write { tx in
                try tx.insertUser(mina)
                try tx.insertSession(session, refresh: SessionRefresh(generation: 0, tokenHash: Fixture.hash(9)))
            }
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for attempt in 0..<50 {
                    let store = attempt.isMultiple(of: 2) ? a : b
                    let next = SessionRefresh(generation: 1, tokenHash: Fixture.hash(UInt8(attempt)), rotatedBy: [UInt8(attempt)])
                    group.addTask {
                        try await store.write { try $0.rotateRefresh(sessionID: session.id, from: 0, to: next, at: Fixture.time(attempt), clientAddress: nil) }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
        }
    }

    @Test func codeAttemptsCountEveryTryAcrossServers() async throws {
        try await withTwoServers { a, b in
            try await a.write { try $0.upsertCode(Fixture.code("mina@example.com")) }
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for attempt in 0..<100 {
                    let store = attempt.isMultiple(of: 2) ? a : b
                    group.addTask { try await store.write { try $0.incrementCodeAttempts(emailKey: "mina@example.com", purpose: "signup") } }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Each try saw its own count: no two read the same value.
            #expect(counts.sorted() == Array(1...100))
            #expect(try await b.read { try $0.code(emailKey: "mina@example.com", purpose: "signup")?.attempts } == 100)
        }
    }

    @Test func mailClaimedOnceAcrossServers() async throws {
        try await withTwoServers { a, b in
            let message = Fixture.mail()
            try await a.write { try $0.enqueueMail(message) }
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for attempt in 0..<40 {
                    let store = attempt.isMultiple(of: 2) ? a : b
                    group.addTask { try await store.write { try $0.claimMail(id: message.id, now: Fixture.time(10), until: Fixture.time(70)) } }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
        }
    }

    @Test func settingInsertedOnceAcrossServers() async throws {
        try await withTwoServers { a, b in
            let values = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for attempt in 0..<20 {
                    let store = attempt.isMultiple(of: 2) ? a : b
                    group.addTask { try await store.write { try $0.insertSettingIfAbsent("code-hmac-key", value: Fixture.hash(UInt8(attempt))) } }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Whoever won, every server got the one value that was kept.
            let kept = try #require(try await a.read { try $0.setting("code-hmac-key") })
            #expect(values.allSatisfy { $0 == kept })
        }
    }

    @Test func conflictSeenByTheOtherServer() async throws {
        try await withTwoServers { a, b in
            try await a.write { try $0.insertUser(Fixture.user("Mina")) }
            await #expect(throws: StoreError.conflict(field: "email")) {
                try await b.write { try $0.insertUser(Fixture.user("Other", email: "mina@example.com")) }
            }
        }
    }
}
