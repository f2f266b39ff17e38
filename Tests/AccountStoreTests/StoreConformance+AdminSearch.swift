import AccountStore
import AccountStoreSQL
import Foundation
import Testing

extension StoreConformance {
    /// The operators' account search: every filter alone and together, newest first with ties by
    /// id, keyset pages that neither repeat nor skip (also while newer accounts arrive), prefixes
    /// compared byte by byte (Hangul included), and the last login from the newest session.
    static func adminSearch(_ store: any AccountStore) async throws {
        // 40 accounts, three to a creation time (ties are settled by id), in mixed states.
        var users: [UserRecord] = []
        for index in 0..<40 {
            var user = Fixture.user(String(format: "user%02d", index), email: String(format: "box%02d@example.com", index))
            user.createdAt = Fixture.time(index / 3)
            user.emailVerified = index % 2 == 0
            users.append(user)
        }
        var hangul = Fixture.user("민아", email: "mina@example.kr")
        hangul.createdAt = Fixture.time(100)
        users.append(hangul)
        let mfa: Set<Int> = [1, 4, 9, 30]
        let disabled: Set<Int> = [2, 9, 31]
        let inserted = users
        try await store.write { tx in
            for user in inserted { try tx.insertUser(user) }
            for index in mfa {
                _ = try tx.upsertPendingTOTP(TOTPFactorRecord(userID: inserted[index].id, sealedSecret: Fixture.hash(1), createdAt: Fixture.time()))
                _ = try tx.confirmTOTP(userID: inserted[index].id, at: Fixture.time(), step: 1)
            }
            for index in disabled { try tx.setDisabled(userID: inserted[index].id, at: Fixture.time(200)) }
            try tx.insertSession(Fixture.session(of: inserted[5], createdAt: Fixture.time(300)))
            try tx.insertSession(Fixture.session(of: inserted[5], createdAt: Fixture.time(400)))
        }
        for index in mfa { users[index].totpEnabled = true }
        for index in disabled { users[index].disabledAt = Fixture.time(200) }

        func expected(_ keep: (Int, UserRecord) -> Bool) -> [UUID] {
            users.enumerated().filter { keep($0.offset, $0.element) }.map(\.element)
                .sorted { ($0.createdAt, $0.id.lowercasedText) > ($1.createdAt, $1.id.lowercasedText) }.map(\.id)
        }
        func all(_ query: AdminUserQuery, pageSize: Int = 7) async throws -> [UUID] {
            var seen: [UUID] = []
            var after: KeysetPosition?
            while true {
                let page = try await store.read { [after] in try $0.adminUsers(query, after: after, limit: pageSize) }
                seen += page.map(\.user.id)
                guard page.count == pageSize, let last = page.last else { return seen }
                after = KeysetPosition(time: last.user.createdAt, id: last.user.id)
            }
        }

        #expect(try await all(AdminUserQuery()) == expected { _, _ in true })
        #expect(try await all(AdminUserQuery(), pageSize: 1) == expected { _, _ in true })
        #expect(try await all(AdminUserQuery(verified: true)) == expected { _, user in user.emailVerified })
        #expect(try await all(AdminUserQuery(verified: false)) == expected { _, user in !user.emailVerified })
        #expect(try await all(AdminUserQuery(mfa: true)) == expected { index, _ in mfa.contains(index) })
        #expect(try await all(AdminUserQuery(mfa: false)) == expected { index, _ in !mfa.contains(index) })
        #expect(try await all(AdminUserQuery(disabled: true)) == expected { index, _ in disabled.contains(index) })
        #expect(try await all(AdminUserQuery(disabled: false)) == expected { index, _ in !disabled.contains(index) })
        #expect(try await all(AdminUserQuery(verified: false, mfa: true, disabled: true)) == [users[9].id])
        let between = AdminUserQuery(createdAfter: Fixture.time(2), createdBefore: Fixture.time(5))
        #expect(try await all(between) == expected { _, user in user.createdAt > Fixture.time(2) && user.createdAt < Fixture.time(5) })
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("user1"))) == expected { index, _ in (10...19).contains(index) })
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("user1"), verified: true, disabled: false))
            == expected { index, user in ((10...19).contains(index)) && user.emailVerified && !disabled.contains(index) })
        #expect(try await all(AdminUserQuery(prefix: .emailKey("box3"))) == expected { index, _ in (30...39).contains(index) })
        #expect(try await all(AdminUserQuery(prefix: .emailKey("box3"), mfa: true)) == [users[30].id])
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("민"))) == [hangul.id])
        #expect(try await all(AdminUserQuery(prefix: .emailKey("mina@example.k"))) == [hangul.id])
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("user%"))).isEmpty, "a prefix is text, not a pattern")
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("zzz"))).isEmpty)

        // A page that starts after a cursor never shows newer accounts that arrived since.
        let first = try await store.read { try $0.adminUsers(AdminUserQuery(), after: nil, limit: 10) }
        var newcomer = Fixture.user("newcomer")
        newcomer.createdAt = Fixture.time(1_000)
        let late = newcomer
        try await store.write { try $0.insertUser(late) }
        let cursor = KeysetPosition(time: first.last!.user.createdAt, id: first.last!.user.id)
        let rest = try await all(AdminUserQuery(), pageSize: 100)
        let second = try await store.read { try $0.adminUsers(AdminUserQuery(), after: cursor, limit: 100) }
        #expect(first.map(\.user.id) + second.map(\.user.id) == Array(rest.dropFirst()), "the newcomer is first, and only there")
        #expect(rest.first == late.id)
        // A cursor and `createdBefore` together: the earlier bound wins.
        let bounded = try await store.read { try $0.adminUsers(AdminUserQuery(createdBefore: Fixture.time(5)), after: cursor, limit: 100) }
        #expect(bounded.map(\.user.id) == second.map(\.user.id).filter { id in users.first { $0.id == id }!.createdAt < Fixture.time(5) })

        // The row: the account as stored and its newest session's opening.
        let (fifth, sixth, ninth) = (users[5], users[6], users[9])
        let row = try #require(try await store.read { try $0.adminUser(id: fifth.id) })
        #expect(row.user == fifth && row.lastLoginAt == Fixture.time(400))
        #expect(try await store.read { try $0.adminUser(id: ninth.id) }?.user == ninth)
        #expect(try await store.read { try $0.adminUser(id: sixth.id) }?.lastLoginAt == nil)
        #expect(try await store.read { try $0.adminUser(id: UUID()) } == nil)
    }
}

extension StoreConformance {
    /// A prefix that matches many accounts (at least ``AdminUserSearch/densePrefix``) is searched
    /// the other way (the time index, the prefix checked on the way): the same answers, pages and
    /// filters as a rare one.
    static func adminSearchCommonPrefix(_ store: any AccountStore) async throws {
        let count = AdminUserSearch.densePrefix + 100
        let users = (0..<count).map { index in
            var user = Fixture.user(String(format: "many%05d", index))
            user.createdAt = Fixture.time(index / 2)
            user.emailVerified = index % 3 != 0
            return user
        }
        var other = Fixture.user("mane")
        other.createdAt = Fixture.time(count)
        let inserted = users + [other]
        try await store.write { tx in
            for user in inserted { try tx.insertUser(user) }
        }
        func all(_ query: AdminUserQuery) async throws -> [UUID] {
            var seen: [UUID] = []
            var after: KeysetPosition?
            while true {
                let page = try await store.read { [after] in try $0.adminUsers(query, after: after, limit: 100) }
                seen += page.map(\.user.id)
                guard page.count == 100, let last = page.last else { return seen }
                after = KeysetPosition(time: last.user.createdAt, id: last.user.id)
            }
        }
        let newestFirst = users.sorted { ($0.createdAt, $0.id.lowercasedText) > ($1.createdAt, $1.id.lowercasedText) }
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("many"))) == newestFirst.map(\.id))
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("man"))) == [other.id] + newestFirst.map(\.id))
        #expect(try await all(AdminUserQuery(prefix: .emailKey("many"), verified: false)) == newestFirst.filter { !$0.emailVerified }.map(\.id))
        let rare = AdminUserQuery(prefix: .nicknameKey("many0001"))
        #expect(try await all(rare) == newestFirst.filter { $0.username.hasPrefix("many0001") }.map(\.id))
        let recent = AdminUserQuery(prefix: .nicknameKey("many"), createdAfter: Fixture.time(count / 2 - 10))
        #expect(try await all(recent) == newestFirst.filter { $0.createdAt > Fixture.time(count / 2 - 10) }.map(\.id))
    }
}
