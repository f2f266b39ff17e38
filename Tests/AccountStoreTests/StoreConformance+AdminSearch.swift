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
        /// In the order of a nickname prefix's search (its key, byte by byte).
        func byNickname(_ keep: (Int, UserRecord) -> Bool) -> [UUID] {
            users.enumerated().filter { keep($0.offset, $0.element) }.map(\.element)
                .sorted { $0.usernameKey.utf8.lexicographicallyPrecedes($1.usernameKey.utf8) }.map(\.id)
        }
        func byAddress(_ keep: (Int, UserRecord) -> Bool) -> [UUID] {
            users.enumerated().filter { keep($0.offset, $0.element) }.map(\.element)
                .sorted { $0.emailKey.utf8.lexicographicallyPrecedes($1.emailKey.utf8) }.map(\.id)
        }
        func all(_ query: AdminUserQuery, pageSize: Int = 7) async throws -> [UUID] { try await everyPage(store, query, pageSize: pageSize) }

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
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("user1"))) == byNickname { index, _ in (10...19).contains(index) })
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("user1")), pageSize: 1) == byNickname { index, _ in (10...19).contains(index) })
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("u"))) == byNickname { index, _ in index < 40 })
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("user1"), verified: true, disabled: false))
            == byNickname { index, user in ((10...19).contains(index)) && user.emailVerified && !disabled.contains(index) })
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("user"), disabled: true)) == byNickname { index, _ in disabled.contains(index) })
        #expect(try await all(AdminUserQuery(prefix: .nicknameKey("user"), verified: false, mfa: true)) == byNickname { index, user in
            mfa.contains(index) && !user.emailVerified
        })
        #expect(try await all(AdminUserQuery(prefix: .emailKey("box3"))) == byAddress { index, _ in (30...39).contains(index) })
        #expect(try await all(AdminUserQuery(prefix: .emailKey("box3"), mfa: true)) == [users[30].id])
        // A prefix within a window (a short one: read on the time index, sorted by key).
        let window = AdminUserQuery(prefix: .nicknameKey("user"), createdAfter: Fixture.time(2), createdBefore: Fixture.time(9))
        #expect(try await all(window, pageSize: 2) == byNickname { index, user in
            index < 40 && user.createdAt > Fixture.time(2) && user.createdAt < Fixture.time(9)
        })
        #expect(try await all(AdminUserQuery(prefix: .emailKey("box"), disabled: false, createdAfter: Fixture.time(10)), pageSize: 3) == byAddress {
            index, user in index < 40 && !disabled.contains(index) && user.createdAt > Fixture.time(10)
        })
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
        let cursor = try #require(first.next)
        #expect(cursor == .time(KeysetPosition(time: first.rows.last!.user.createdAt, id: first.rows.last!.user.id)))
        let rest = try await all(AdminUserQuery(), pageSize: 100)
        let second = try await store.read { try $0.adminUsers(AdminUserQuery(), after: cursor, limit: 100) }
        #expect(first.rows.map(\.user.id) + second.rows.map(\.user.id) == Array(rest.dropFirst()), "the newcomer is first, and only there")
        #expect(second.next == nil)
        #expect(rest.first == late.id)
        // A cursor and `createdBefore` together: the earlier bound wins.
        let bounded = try await store.read { try $0.adminUsers(AdminUserQuery(createdBefore: Fixture.time(5)), after: cursor, limit: 100) }
        #expect(bounded.rows.map(\.user.id) == second.rows.map(\.user.id).filter { id in users.first { $0.id == id }!.createdAt < Fixture.time(5) })
        // A key cursor goes on after its key, and a cursor of another order gives nothing.
        let named = try await store.read { try $0.adminUsers(AdminUserQuery(prefix: .nicknameKey("user")), after: .nicknameKey("user37"), limit: 100) }
        #expect(named.rows.map(\.user.username) == ["user38", "user39"] && named.next == nil)
        let before = try await store.read { try $0.adminUsers(AdminUserQuery(prefix: .nicknameKey("user3")), after: .nicknameKey("a"), limit: 100) }
        #expect(before.rows.count == 10, "a key before the prefix starts at the prefix")
        for (query, position) in [(AdminUserQuery(), AdminSearchPosition.nicknameKey("user1")),
                                  (AdminUserQuery(prefix: .nicknameKey("user")), .emailKey("box1")),
                                  (AdminUserQuery(prefix: .emailKey("box")), cursor)] {
            #expect(try await store.read { try $0.adminUsers(query, after: position, limit: 10) } == AdminSearchPage(rows: [], next: nil))
        }

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
    /// Every page of `query`, following `next` (a page may be short, or empty, before the last).
    static func everyPage(_ store: any AccountStore, _ query: AdminUserQuery, pageSize: Int) async throws -> [UUID] {
        var seen: [UUID] = []
        var after: AdminSearchPosition?
        for _ in 0..<10_000 {
            let page = try await store.read { [after] in try $0.adminUsers(query, after: after, limit: pageSize) }
            #expect(page.rows.count <= pageSize)
            seen += page.rows.map(\.user.id)
            guard let next = page.next else { return seen }
            #expect(next != after, "a page moves on")
            after = next
        }
        Issue.record("\(query) never ended")
        return seen
    }

    /// A window wide enough (``AdminUserSearch/shortWindow`` accounts or more) that a prefix's key
    /// runs are walked under the scan budget: pages may be short or empty, yet every match comes
    /// exactly once, in key order, though thousands of the prefix's accounts come first in key
    /// order and lie outside the window.
    static func adminSearchWideWindow(_ store: any AccountStore) async throws {
        let count = AdminUserSearch.shortWindow + 500
        // Key order is time order: `wide-…` (older than the window) before `wide0…`.
        let old = (0..<4_500).map { index in
            var user = Fixture.user(String(format: "wide-%04d", index), email: String(format: "w-%04d@wide.test", index))
            user.createdAt = Fixture.time(-10_000 + index)
            return user
        }
        let users = (0..<count).map { index in
            var user = Fixture.user(String(format: "wide%05d", index), email: String(format: "w%05d@wide.test", index))
            user.createdAt = Fixture.time(index / 2)
            user.emailVerified = index % 7 != 0
            return user
        }
        let inserted = old + users
        let disabledIndexes = Set(stride(from: 0, to: count, by: 997))
        try await store.write { tx in
            for user in inserted { try tx.insertUser(user) }
            for index in disabledIndexes { try tx.setDisabled(userID: users[index].id, at: Fixture.time()) }
        }
        func keyed(_ keep: (Int, UserRecord) -> Bool) -> [UUID] {
            users.enumerated().filter { keep($0.offset, $0.element) }.map(\.element.id)
        }
        let window = AdminUserQuery(prefix: .nicknameKey("wide"), createdAfter: Fixture.time(-1))
        #expect(try await everyPage(store, window, pageSize: 50) == keyed { _, _ in true })
        let first = try await store.read { try $0.adminUsers(window, after: nil, limit: 50) }
        #expect(first.rows.isEmpty && first.next != nil, "the first stretch holds only accounts outside the window")
        #expect(try await everyPage(store, AdminUserQuery(prefix: .nicknameKey("wide01"), createdAfter: Fixture.time(-1)), pageSize: 100)
            == keyed { index, _ in (1_000..<2_000).contains(index) })
        let addresses = AdminUserQuery(prefix: .emailKey("w"), mfa: false, createdAfter: Fixture.time(-1), createdBefore: Fixture.time(count))
        #expect(try await everyPage(store, addresses, pageSize: 100) == keyed { _, _ in true })
        // Filters make the window short within their runs: read on the time index, same answers.
        let unverified = AdminUserQuery(prefix: .emailKey("w"), verified: false, createdAfter: Fixture.time(100))
        #expect(try await everyPage(store, unverified, pageSize: 100) == keyed { _, user in !user.emailVerified && user.createdAt > Fixture.time(100) })
        let disabledOld = AdminUserQuery(prefix: .nicknameKey("wide"), disabled: true, createdBefore: Fixture.time(count / 2))
        #expect(try await everyPage(store, disabledOld, pageSize: 3) == keyed { index, user in
            disabledIndexes.contains(index) && user.createdAt < Fixture.time(count / 2)
        })
        // A short window inside: read on the time index, same answers.
        let short = AdminUserQuery(prefix: .nicknameKey("wide0"), createdAfter: Fixture.time(500), createdBefore: Fixture.time(1_500))
        let shortMatches = keyed { _, user in user.createdAt > Fixture.time(500) && user.createdAt < Fixture.time(1_500) }
        let shortPages = try await everyPage(store, short, pageSize: 40)
        #expect(shortMatches.count == 1_998 && shortPages == shortMatches)
        // Without a window the key range alone, a page at a time.
        let plain = try await store.read { try $0.adminUsers(AdminUserQuery(prefix: .nicknameKey("wide")), after: .nicknameKey("wide01000"), limit: 3) }
        #expect(plain.rows.map(\.user.username) == ["wide01001", "wide01002", "wide01003"] && plain.next == .nicknameKey("wide01003"))
    }
}
