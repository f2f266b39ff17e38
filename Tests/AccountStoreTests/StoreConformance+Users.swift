import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func usersRoundTrip(_ store: any AccountStore) async throws {
        var mina = Fixture.user("Mina")
        mina.emailVerified = true
        let inserted = mina
        try await store.write { try $0.insertUser(inserted) }

        let (byID, byName, byEmail, missing, count) = try await store.read { tx in
            (try tx.user(id: inserted.id), try tx.user(usernameKey: "mina"), try tx.user(emailKey: "mina@example.com"),
             try tx.user(id: UUID()), try tx.userCount())
        }
        #expect(byID == inserted)
        #expect(byName == inserted)
        #expect(byEmail == inserted)
        #expect(missing == nil)
        #expect(count == 1)
    }

    static func updateUser(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let joon = Fixture.user("Joon")
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertUser(joon)
        }

        var renamed = mina
        renamed.username = "Mina2"
        renamed.usernameKey = "mina2"
        renamed.mbti = "ENFP"
        renamed.emailVerified = true
        renamed.updatedAt = Fixture.time(60)
        let updated = renamed
        try await store.write { try $0.updateUser(updated) }
        #expect(try await store.read { try $0.user(id: mina.id) } == updated)
        #expect(try await store.read { try $0.user(usernameKey: "mina") } == nil)

        var stealsName = joon
        stealsName.usernameKey = "mina2"
        let nameThief = stealsName
        await #expect(throws: StoreError.conflict(field: "username")) {
            try await store.write { try $0.updateUser(nameThief) }
        }
        var stealsEmail = joon
        stealsEmail.emailKey = "mina@example.com"
        let emailThief = stealsEmail
        await #expect(throws: StoreError.conflict(field: "email")) {
            try await store.write { try $0.updateUser(emailThief) }
        }
        #expect(try await store.read { try $0.user(id: joon.id) } == joon)
    }

    static func duplicateUsername(_ store: any AccountStore) async throws {
        try await store.write { try $0.insertUser(Fixture.user("Mina")) }
        let twin = Fixture.user("MINA", email: "other@example.com")
        try await expectConflict("username", store) { try $0.insertUser(twin) }
    }

    static func duplicateEmail(_ store: any AccountStore) async throws {
        try await store.write { try $0.insertUser(Fixture.user("Mina")) }
        let twin = Fixture.user("Other", email: "MINA@example.com")
        try await expectConflict("email", store) { try $0.insertUser(twin) }
    }

    /// Writes a code, a mail and another user, then `conflicting`; expects the conflict and none
    /// of the earlier writes to remain.
    private static func expectConflict(
        _ field: String, _ store: any AccountStore,
        _ conflicting: @escaping @Sendable (any StoreTransaction) throws -> Void
    ) async throws {
        await #expect(throws: StoreError.conflict(field: field)) {
            try await store.write { tx in
                try tx.upsertCode(Fixture.code("new@example.com"))
                try tx.enqueueMail(Fixture.mail(to: "new@example.com"))
                try tx.insertUser(Fixture.user("Bystander"))
                try conflicting(tx)
            }
        }
        let (users, mails, code) = try await store.read { tx in
            (try tx.userCount(), try tx.outboxCount(), try tx.code(emailKey: "new@example.com", purpose: "signup"))
        }
        #expect(users == 1)
        #expect(mails == 0)
        #expect(code == nil)
    }

    static func throwingBodyRollsBack(_ store: any AccountStore) async throws {
        await #expect(throws: Planned()) {
            try await store.write { tx in
                try tx.insertUser(Fixture.user("Mina"))
                throw Planned()
            }
        }
        #expect(try await store.read { try $0.userCount() } == 0)
        // The writer is still usable after a rollback.
        try await store.write { try $0.insertUser(Fixture.user("Mina")) }
        #expect(try await store.read { try $0.userCount() } == 1)
    }

    static func readRefusesWrites(_ store: any AccountStore) async throws {
        await #expect(throws: StoreError.self) {
            try await store.read { try $0.insertUser(Fixture.user("Mina")) }
        }
        #expect(try await store.read { try $0.userCount() } == 0)
    }

    static func transactionEndsWithClosure(_ store: any AccountStore) async throws {
        let leaked = Box<any StoreTransaction>()
        try await store.write { leaked.value = $0 }
        let transaction = try #require(leaked.value)
        #expect(throws: StoreError.self) { try transaction.insertUser(Fixture.user("Mina")) }
        #expect(try await store.read { try $0.userCount() } == 0)
    }

    static func deleteUserCascades(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let joon = Fixture.user("Joon")
        let minaSession = Fixture.session(of: mina)
        let joonSession = Fixture.session(of: joon)
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertUser(joon)
            try tx.insertSession(minaSession)
            try tx.insertSession(joonSession)
            try tx.upsertCode(Fixture.code(mina.emailKey, purpose: "verify"))
            try tx.upsertCode(Fixture.code(mina.emailKey, purpose: "reset"))
            try tx.upsertCode(Fixture.code(joon.emailKey, purpose: "verify"))
        }

        #expect(try await store.write { try $0.deleteUser(id: mina.id) })
        #expect(try await store.write { try $0.deleteUser(id: mina.id) } == false)

        // Checked out here: issues recorded on a store thread would not reach the test.
        let gone = try await store.read { tx in
            [try tx.user(id: mina.id) == nil, try tx.session(id: minaSession.id) == nil,
             try tx.sessions(userID: mina.id).isEmpty, try tx.refreshableSession(id: minaSession.id) == nil,
             try tx.code(emailKey: mina.emailKey, purpose: "verify") == nil,
             try tx.code(emailKey: mina.emailKey, purpose: "reset") == nil]
        }
        let kept = try await store.read { tx in
            [try tx.user(id: joon.id) == joon, try tx.session(id: joonSession.id) == joonSession,
             try tx.refreshableSession(id: joonSession.id) != nil,
             try tx.code(emailKey: joon.emailKey, purpose: "verify") != nil]
        }
        #expect(gone == [true, true, true, true, true, true])
        #expect(kept == [true, true, true, true])
    }
}
