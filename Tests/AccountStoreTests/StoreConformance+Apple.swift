import AccountStore
import Foundation
import Testing

extension StoreConformance {
    static func appleIdentity(_ user: UserRecord, subject: String, sealed: [UInt8]? = [1, 2, 3]) -> AppleIdentityRecord {
        AppleIdentityRecord(
            subject: subject, userID: user.id, clientID: "com.example.mbti", email: "relay@privaterelay.appleid.com",
            sealedRefreshToken: sealed, createdAt: Fixture.time(5))
    }

    static func appleContinuation(_ seed: UInt8, subject: String, expiresAt: Date) -> AppleContinuationRecord {
        AppleContinuationRecord(
            hash: Fixture.hash(seed), subject: subject, clientID: "com.example.mbti", email: "new@privaterelay.appleid.com",
            sealedRefreshToken: seed.isMultiple(of: 2) ? nil : [seed, 9], createdAt: Fixture.time(), expiresAt: expiresAt)
    }

    /// Apple IDs: one account each and one each account, `appleLinked` kept with them, read by
    /// subject and account, the refresh token replaced, unlinked once, gone with the account.
    static func appleIdentities(_ store: any AccountStore) async throws {
        let mina = Fixture.user("Mina")
        let other = Fixture.user("Other")
        try await store.write { tx in
            try tx.insertUser(mina)
            try tx.insertUser(other)
        }
        let linked = appleIdentity(mina, subject: "001.mina")
        #expect(try await store.write { try $0.insertAppleIdentity(linked) })
        #expect(try await store.read { try $0.user(id: mina.id)?.appleLinked } == true)
        #expect(try await store.read { try $0.user(id: other.id)?.appleLinked } == false)
        // The same Apple ID for another account, or a second one for this account: nothing stored.
        let stolen = appleIdentity(other, subject: "001.mina")
        #expect(try await store.write { try $0.insertAppleIdentity(stolen) } == false)
        let second = appleIdentity(mina, subject: "001.second")
        #expect(try await store.write { try $0.insertAppleIdentity(second) } == false)
        #expect(try await store.read { try $0.user(id: other.id)?.appleLinked } == false)

        #expect(try await store.read { try $0.appleIdentity(subject: "001.mina") } == linked)
        #expect(try await store.write { try $0.appleIdentity(subject: "001.mina") } == linked, "read to decide, in a write")
        #expect(try await store.read { try $0.appleIdentity(userID: mina.id) } == linked)
        #expect(try await store.read { try $0.appleIdentity(subject: "001.second") } == nil)
        #expect(try await store.read { try $0.appleIdentity(userID: other.id) } == nil)
        // The account's session reads it too.
        let session = Fixture.session(of: mina)
        try await store.write { try $0.insertSession(session) }
        #expect(try await store.read { try $0.sessionWithUser(id: session.id)?.user?.appleLinked } == true)
        #expect(try await store.sessionWithUser(id: session.id)?.user?.appleLinked == true)

        try await store.write { try $0.setAppleRefreshToken(subject: "001.mina", sealed: [7, 7]) }
        #expect(try await store.read { try $0.appleIdentity(subject: "001.mina")?.sealedRefreshToken } == [7, 7])
        try await store.write { try $0.setAppleRefreshToken(subject: "001.mina", sealed: nil) }
        #expect(try await store.read { try $0.appleIdentity(subject: "001.mina")?.sealedRefreshToken } == nil)

        // A profile edit leaves the link alone.
        var renamed = try #require(try await store.read { try $0.user(id: mina.id) })
        renamed.mbti = "ISTP"
        try await store.write { [renamed] in try $0.updateUser(renamed) }
        #expect(try await store.read { try $0.user(id: mina.id)?.appleLinked } == true)
        #expect(try await store.sessionWithUser(id: session.id)?.user?.appleLinked == true)

        var removed = linked
        removed.sealedRefreshToken = nil
        #expect(try await store.write { try $0.deleteAppleIdentity(userID: mina.id) } == removed)
        #expect(try await store.write { try $0.deleteAppleIdentity(userID: mina.id) } == nil)
        #expect(try await store.read { try $0.user(id: mina.id)?.appleLinked } == false)
        #expect(try await store.sessionWithUser(id: session.id)?.user?.appleLinked == false)
        // Free again: another account may link it.
        #expect(try await store.write { try $0.insertAppleIdentity(stolen) })
        _ = try await store.write { try $0.deleteUser(id: other.id) }
        #expect(try await store.read { try $0.appleIdentity(subject: "001.mina") } == nil, "the link goes with the account")
    }

    /// Continuations: by hash, kept until deleted, expired ones swept; a rolled-back completion
    /// keeps its continuation.
    static func appleContinuations(_ store: any AccountStore) async throws {
        let young = appleContinuation(1, subject: "001.a", expiresAt: Fixture.time(600))
        let old = appleContinuation(2, subject: "001.b", expiresAt: Fixture.time(100))
        try await store.write { tx in
            try tx.insertAppleContinuation(young)
            try tx.insertAppleContinuation(old)
        }
        #expect(try await store.read { try $0.appleContinuation(hash: Fixture.hash(1)) } == young)
        #expect(try await store.write { try $0.appleContinuation(hash: Fixture.hash(2)) } == old)
        #expect(try await store.read { try $0.appleContinuation(hash: Fixture.hash(3)) } == nil)

        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await store.write { tx in
                _ = try tx.deleteAppleContinuation(hash: Fixture.hash(1))
                throw Refused()
            }
        }
        #expect(try await store.read { try $0.appleContinuation(hash: Fixture.hash(1)) } == young, "given back on rollback")

        #expect(try await store.write { try $0.deleteAppleContinuations(expiredBefore: Fixture.time(99)) } == 0)
        #expect(try await store.write { try $0.deleteAppleContinuations(expiredBefore: Fixture.time(100)) } == 1)
        #expect(try await store.write { try $0.deleteAppleContinuation(hash: Fixture.hash(1)) })
        #expect(try await store.write { try $0.deleteAppleContinuation(hash: Fixture.hash(1)) } == false)
    }

    /// Used identity tokens: recorded once, a second record refused and nothing changed, given
    /// back on rollback, expired ones removed oldest first a batch at a time.
    static func usedAppleTokens(_ store: any AccountStore) async throws {
        let used = UsedAppleTokenRecord(hash: Fixture.hash(1), expiresAt: Fixture.time(660))
        #expect(try await store.write { try $0.insertUsedAppleToken(used) })
        #expect(try await store.write { try $0.insertUsedAppleToken(used) } == false, "accepted once")
        let later = UsedAppleTokenRecord(hash: Fixture.hash(1), expiresAt: Fixture.time(9999))
        #expect(try await store.write { try $0.insertUsedAppleToken(later) } == false, "whatever its expiry")

        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await store.write { tx in
                _ = try tx.insertUsedAppleToken(UsedAppleTokenRecord(hash: Fixture.hash(2), expiresAt: Fixture.time(600)))
                throw Refused()
            }
        }
        #expect(try await store.write { try $0.insertUsedAppleToken(UsedAppleTokenRecord(hash: Fixture.hash(2), expiresAt: Fixture.time(600))) },
            "a rolled-back use leaves the token unused")
        for seed in UInt8(3)...7 {
            #expect(try await store.write { try $0.insertUsedAppleToken(UsedAppleTokenRecord(hash: Fixture.hash(seed), expiresAt: Fixture.time(Int(seed)))) })
        }
        #expect(try await store.rowCounts()["apple_used_tokens"] == 7)
        #expect(try await store.write { try $0.deleteUsedAppleTokens(expiredBefore: Fixture.time(2), limit: 10) } == 0)
        #expect(try await store.write { try $0.deleteUsedAppleTokens(expiredBefore: Fixture.time(600), limit: 2) } == 2, "a batch")
        // The oldest went first: seeds 3 and 4.
        #expect(try await store.write { try $0.insertUsedAppleToken(UsedAppleTokenRecord(hash: Fixture.hash(5), expiresAt: Fixture.time(5))) } == false)
        #expect(try await store.write { try $0.deleteUsedAppleTokens(expiredBefore: Fixture.time(600), limit: 10) } == 4)
        #expect(try await store.rowCounts()["apple_used_tokens"] == 1)
        #expect(try await store.write { try $0.insertUsedAppleToken(used) } == false, "not yet expired: kept")
        #expect(try await store.write { try $0.insertUsedAppleToken(UsedAppleTokenRecord(hash: Fixture.hash(3), expiresAt: Fixture.time(3))) },
            "an expired row, once removed, no longer stands in the way (the token is refused as expired anyway)")
    }

    /// Outbox rows of another kind than mail keep their kind; a kind this version does not know is
    /// left alone.
    static func outboxKinds(_ store: any AccountStore) async throws {
        let revocation = OutboxMessage(
            id: UUID(), recipient: "com.example.mbti", subject: "", body: "c2VhbGVk", createdAt: Fixture.time(), nextAttemptAt: Fixture.time(),
            kind: .appleRevocation)
        let mail = Fixture.mail()
        try await store.write { tx in
            try tx.enqueueMail(revocation)
            try tx.enqueueMail(mail)
        }
        let due = try await store.read { try $0.dueMail(now: Fixture.time(3600), limit: 10) }
        #expect(Set(due.map(\.kind)) == [.mail, .appleRevocation])
        #expect(due.first { $0.id == revocation.id } == revocation)
        #expect(due.first { $0.id == mail.id }?.kind == .mail)
    }

    /// Two simultaneous completions of one continuation (on one store or two servers) and two
    /// links of one Apple ID: exactly one of each wins.
    static func appleRaces(_ a: any AccountStore, _ b: any AccountStore) async throws {
        let users = (0..<20).map { Fixture.user("Racer\($0)") }
        try await a.write { tx in for user in users { try tx.insertUser(user) } }
        let links = try await withThrowingTaskGroup(of: Bool.self) { group in
            for (index, user) in users.enumerated() {
                let store = index.isMultiple(of: 2) ? a : b
                group.addTask { try await store.write { try $0.insertAppleIdentity(appleIdentity(user, subject: "001.raced")) } }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(links == 1)
        let owner = try #require(try await b.read { try $0.appleIdentity(subject: "001.raced") })
        let flagged = try await a.read { tx in try users.filter { try tx.user(id: $0.id)?.appleLinked == true }.map(\.id) }
        #expect(flagged == [owner.userID])

        try await a.write { try $0.insertAppleContinuation(appleContinuation(5, subject: "001.taken", expiresAt: Fixture.time(600))) }
        let takes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<30 {
                let store = index.isMultiple(of: 2) ? a : b
                group.addTask {
                    try await store.write { tx in
                        // As a completion does: read (locked) to decide, then spend.
                        guard try tx.appleContinuation(hash: Fixture.hash(5)) != nil else { return false }
                        return try tx.deleteAppleContinuation(hash: Fixture.hash(5))
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(takes == 1)

        // One identity token used at once on both: recorded once, and the transaction that
        // recorded it is the one that goes on (here: makes one session).
        let owner2 = users[0]
        let spent = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<30 {
                let store = index.isMultiple(of: 2) ? a : b
                group.addTask {
                    try await store.write { tx in
                        guard try tx.insertUsedAppleToken(UsedAppleTokenRecord(hash: Fixture.hash(6), expiresAt: Fixture.time(600))) else { return false }
                        try tx.insertSession(Fixture.session(of: owner2))
                        return true
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(spent == 1)
        #expect(try await b.read { try $0.sessions(userID: owner2.id) }.count == 1)
    }
}
