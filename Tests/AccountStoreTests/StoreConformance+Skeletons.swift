import AccountAPI
import AccountStore
import Foundation
import Testing
import UnicodeSecurity

extension StoreConformance {
    /// Both skeletons from ICU, as the server makes them but without its folding afterwards.
    static func skeletons(_ checker: SpoofChecker) -> @Sendable (UserRecord) throws -> (folded: String, displayed: String) {
        { user in (try checker.skeleton(user.usernameKey), try checker.skeleton(user.username)) }
    }

    static func usernameSkeletons(_ store: any AccountStore) async throws {
        var mina = Fixture.user("Mina")
        mina.usernameSkeleton = "mina"
        mina.usernameDisplaySkeleton = "Mina"
        let (named, waiting, alsoWaiting) = (mina, Fixture.user("Joon"), Fixture.user("Sora"))
        try await store.write { tx in
            try tx.insertUser(named)
            // Two accounts without skeletons: NULLs do not collide.
            try tx.insertUser(waiting)
            try tx.insertUser(alsoWaiting)
        }
        #expect(try await store.read { try $0.user(usernameSkeleton: "mina", kind: .folded) } == named)
        #expect(try await store.read { try $0.user(usernameSkeleton: "Mina", kind: .displayed) } == named)
        #expect(try await store.read { try $0.user(usernameSkeleton: "Mina", kind: .folded) } == nil)
        #expect(try await store.read { try $0.user(usernameSkeleton: "mina", kind: .displayed) } == nil)
        let listed = try await store.read { try $0.usersWithoutSkeleton(limit: 10) }
        #expect(Set(listed.map(\.id)) == [waiting.id, alsoWaiting.id])
        #expect(try await store.read { try $0.usersWithoutSkeleton(limit: 1) }.count == 1)

        var twin = Fixture.user("rnina")
        twin.usernameSkeleton = "mina"
        twin.usernameDisplaySkeleton = "mina"
        let lookalike = twin
        await #expect(throws: StoreError.conflict(field: "username")) { try await store.write { try $0.insertUser(lookalike) } }
        twin.usernameSkeleton = "rnina"
        twin.usernameDisplaySkeleton = "Mina"
        let shownAlike = twin
        await #expect(throws: StoreError.conflict(field: "username")) { try await store.write { try $0.insertUser(shownAlike) } }
        var claims = waiting
        claims.usernameSkeleton = "mina"
        let claimant = claims
        await #expect(throws: StoreError.conflict(field: "username")) { try await store.write { try $0.updateUser(claimant) } }

        claims.usernameSkeleton = "joon"
        claims.usernameDisplaySkeleton = "Joon"
        let filled = claims
        try await store.write { try $0.updateUser(filled) }
        #expect(try await store.read { try $0.user(id: waiting.id) } == filled)
        #expect(try await store.read { try $0.usersWithoutSkeleton(limit: 10) }.map(\.id) == [alsoWaiting.id])
    }

    static func keyBackfill(_ store: any AccountStore) async throws {
        let checker = try SpoofChecker()
        let backfill = UserKeyBackfill(
            skeletons: skeletons(checker), emailKey: { EmailRule.key($0) }, batchSize: 3)
        // Accounts as the code before skeletons wrote them: no skeleton, email keys lower-cased only.
        func legacy(_ name: String, _ email: String, verified: Bool, at seconds: Int) -> UserRecord {
            var user = Fixture.user(name, email: email)
            user.emailVerified = verified
            user.createdAt = Fixture.time(seconds)
            return user
        }
        let mina = legacy("Mina", "mina@example.com", verified: false, at: 0)
        let rnina = legacy("rnina", "rnina@example.com", verified: true, at: 10)   // looks like "mina", verified: keeps it
        let sam = legacy("Sam", "\u{017F}am@example.com", verified: false, at: 20)  // long s: the key becomes sam@
        let joon = legacy("Joon", "joon@example.com", verified: true, at: 30)
        let paypal = legacy("paypal", "paypal@example.com", verified: false, at: 45)
        let paypaI = legacy("paypaI", "paypai@example.com", verified: false, at: 46)  // capital i: alike only as shown
        let wide = legacy("Wide", "ｊoon@example.com", verified: true, at: 40)      // the same address, newer: loses it
        let others = (0..<7).map { legacy("user\($0)", "user\($0)@example.com", verified: false, at: 50 + $0) }
        var current = Fixture.user("Hana")
        current.usernameSkeleton = try checker.skeleton("hana")
        current.usernameDisplaySkeleton = try checker.skeleton("Hana")
        let all = [mina, rnina, sam, joon, wide, paypal, paypaI] + others
        let written = current
        try await store.write { tx in
            for user in all { try tx.insertUser(user) }
            try tx.insertUser(written)
        }

        let outcome = try await backfill.run(on: store)
        #expect(outcome.filled == all.count)
        #expect(Set(outcome.displaced.map { "\($0.userID) \($0.field) \($0.keptBy)" }) == [
            "\(mina.id) username \(rnina.id)", "\(wide.id) email \(joon.id)", "\(paypaI.id) username \(paypal.id)",
        ])
        #expect(outcome.displaced.count == 3, "a pair alike in both skeletons is reported once")

        let after = try await store.read { tx in try all.map { try #require(try tx.user(id: $0.id)) } }
        let byID = Dictionary(uniqueKeysWithValues: after.map { ($0.id, $0) })
        #expect(byID[rnina.id]?.usernameSkeleton == (try checker.skeleton("mina")))
        #expect(byID[mina.id]?.usernameSkeleton == UserKeyBackfill.placeholder(for: mina.id))
        // As shown, "Mina" and "rnina" differ (these skeletons are not folded afterwards): that one stays.
        #expect(byID[mina.id]?.usernameDisplaySkeleton == (try checker.skeleton("Mina")))
        // Alike only as shown: loses that skeleton and keeps the other.
        #expect(byID[paypaI.id]?.usernameSkeleton == (try checker.skeleton("paypai")))
        #expect(byID[paypaI.id]?.usernameDisplaySkeleton == UserKeyBackfill.placeholder(for: paypaI.id))
        #expect(byID[paypal.id]?.usernameDisplaySkeleton == (try checker.skeleton("paypal")))
        #expect(byID[sam.id]?.emailKey == "sam@example.com")
        #expect(byID[wide.id]?.emailKey == UserKeyBackfill.placeholder(for: wide.id))
        #expect(byID[joon.id]?.emailKey == "joon@example.com")
        for user in others { #expect(byID[user.id]?.usernameSkeleton == (try checker.skeleton(user.usernameKey))) }
        // Only keys changed: names, addresses and everything else as they were.
        for user in all { #expect(byID[user.id]?.email == user.email && byID[user.id]?.username == user.username) }
        #expect(try await store.read { try $0.user(emailKey: "sam@example.com")?.id } == sam.id)
        #expect(try await store.read { try $0.user(id: written.id) } == written)
        #expect(try await store.read { try $0.usersWithoutSkeleton(limit: 100) }.isEmpty)
        #expect(after.allSatisfy { $0.usernameDisplaySkeleton != nil })
        #expect(try await backfill.run(on: store) == UserKeyBackfill.Outcome())
    }

    static func concurrentKeyBackfills(_ store: any AccountStore) async throws {
        let checker = try SpoofChecker()
        let backfill = UserKeyBackfill(
            skeletons: skeletons(checker), emailKey: { EmailRule.key($0) }, batchSize: 7)
        // Pairs that collide, so the runs race on the same keys too.
        let users = (0..<40).map { index in
            var user = Fixture.user(index.isMultiple(of: 2) ? "mina\(index)" : "rnina\(index - 1)", email: "u\(index)@example.com")
            user.createdAt = Fixture.time(index)
            return user
        }
        try await store.write { tx in for user in users { try tx.insertUser(user) } }
        let outcomes = try await withThrowingTaskGroup(of: UserKeyBackfill.Outcome.self) { group in
            for _ in 0..<3 { group.addTask { try await backfill.run(on: store) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.map(\.filled).reduce(0, +) >= users.count)
        let after = try await store.read { tx in try users.map { try #require(try tx.user(id: $0.id)) } }
        for (index, user) in after.enumerated() {
            // The older of each pair keeps the skeleton; the newer has the placeholder.
            let expected = index.isMultiple(of: 2) ? try checker.skeleton(user.usernameKey) : UserKeyBackfill.placeholder(for: user.id)
            #expect(user.usernameSkeleton == expected, "\(user.username)")
        }
    }
}
