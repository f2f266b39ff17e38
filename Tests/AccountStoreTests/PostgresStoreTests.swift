import AccountStore
import AccountStorePostgres
import Foundation
import TestSupport
import Testing

/// The shared conformance suite and the PostgreSQL-only behaviours, each on a database of its own.
@Suite(.enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.disabledNote))
struct PostgresStoreTests {
    @Test(arguments: StoreConformance.behaviours)
    func conforms(_ behaviour: Behaviour) async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try PostgresAccountStore(url: url)
            try await store.migrate()
            try await behaviour.check(store)
            await store.close()
        }
    }

    /// The conformance suite again, each write checked to have named every account and session
    /// it changed (``ChangeAudit``).
    @Test(arguments: StoreConformance.behaviours)
    func announcesEveryChange(_ behaviour: Behaviour) async throws {
        try await PostgresTestServer.withDatabase { url in
            // One connection: the audit runs writes one at a time anyway.
            let store = try PostgresAccountStore(url: url, poolSize: 1)
            try await store.migrate()
            try await behaviour.check(ChangeAudit(store))
            await store.close()
        }
    }

    @Test func initDoesNotMigrate() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try PostgresAccountStore(url: url, poolSize: 1)
            await #expect(throws: StoreError.self) { try await store.read { try $0.userCount() } }
            #expect(try await store.migrate() == PostgresAccountStore.schemaVersion)
            #expect(try await store.read { try $0.userCount() } == 0)
            await store.close()
        }
    }

    @Test func rowCountsCoverEveryTable() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try PostgresAccountStore(url: url, poolSize: 1)
            try await store.migrate()
            try await store.write { tx in
                try tx.insertUser(Fixture.user("Mina"))
                try tx.enqueueMail(Fixture.mail())
            }
            let counts = try await store.rowCounts()
            #expect(counts == [
                "users": 1, "outbox": 1, "schema_version": PostgresAccountStore.schemaVersion, "sessions": 0,
                "codes": 0, "verification_tokens": 0, "signing_keys": 0, "settings": 0,
                "login_throttles": 0, "rate_counters": 0, "pending_signups": 0,
                "totp_factors": 0, "recovery_codes": 0, "mfa_challenges": 0, "passkeys": 0, "webauthn_challenges": 0, "audit_events": 0,
                "security_events": 0, "hourly_counters": 0, "apple_identities": 0, "apple_continuations": 0, "apple_used_tokens": 0,
            ])
            await store.close()
        }
    }

    @Test func unreachableDatabaseIsUnavailableWithoutPassword() throws {
        // Port 1 on loopback refuses at once.
        #expect {
            _ = try PostgresAccountStore(url: "postgres://account:s3cret-pw@127.0.0.1:1/account")
        } throws: { error in
            guard case .unavailable(let reason) = error as? StoreError else { return false }
            return reason.message.contains("127.0.0.1") && !reason.description.contains("s3cret-pw") && reason.sqlState == "08001"
        }
    }

    @Test func callsAfterCloseAreUnavailable() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try PostgresAccountStore(url: url, poolSize: 1)
            try await store.migrate()
            await store.close()
            let unavailable = StoreError.unavailable(reason: "store is closed")
            await #expect(throws: unavailable) { try await store.read { try $0.userCount() } }
            await #expect(throws: unavailable) { try await store.write { try $0.userCount() } }
            await #expect(throws: unavailable) { try await store.ping() }
        }
    }

    @Test func bodyThatSwallowsAStatementErrorDoesNotCommit() async throws {
        try await PostgresTestServer.withDatabase { url in
            let store = try PostgresAccountStore(url: url, poolSize: 1)
            try await store.migrate()
            try await store.write { try $0.insertUser(Fixture.user("Mina")) }
            await #expect(throws: StoreError.self) {
                try await store.write { tx in
                    try tx.enqueueMail(Fixture.mail())
                    _ = try? tx.insertUser(Fixture.user("Mina"))
                }
            }
            #expect(try await store.read { try $0.outboxCount() } == 0)
            await store.close()
        }
    }
}
