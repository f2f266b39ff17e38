import AccountAPI
import Foundation
import TestSupport
import Testing

/// `GET /admin/api/users` against the real binary: filters, prefixes, and keyset pages that
/// neither repeat nor skip an account while new ones sign up between pages.
@Suite struct AdminSearchTests {
    func page(_ server: ServerProcess, _ query: String, _ token: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> AdminUserPage {
        let reply = try await server.adminSearch(query, token: token)
        try #require(reply.status == 200, "\(query): \(reply.text)", sourceLocation: sourceLocation)
        return try reply.decode(AdminUserPage.self)
    }

    /// Every page of `query`, following `next`; `between` runs after each page.
    func all(
        _ server: ServerProcess, _ query: String, _ token: String, limit: Int = 50, between: () async throws -> Void = {}
    ) async throws -> [AdminUser] {
        var users: [AdminUser] = []
        var cursor: String?
        repeat {
            let parts = [query, "limit=\(limit)", cursor.map { "after=" + $0 }].compactMap { $0 }.filter { !$0.isEmpty }
            let page = try await page(server, parts.joined(separator: "&"), token)
            #expect(page.users.count <= limit)
            users += page.users
            cursor = page.next
            try await between()
        } while cursor != nil
        return users
    }

    @Test func filtersPrefixesAndPagesWhileAccountsArrive() async throws {
        let folder = try TemporaryFolder()
        let clock = try TestClock(in: folder)
        let server = try await ServerProcess.start(in: folder, clock: clock, ["--allow-unverified-login"])
        let op = try await server.signedInOperator()
        let tag = "q" + UUID().uuidString.prefix(6).lowercased()

        // Seven accounts under one nickname prefix, a second apart: verified or not, one with a
        // second factor, one disabled.
        var ids: [String] = []
        for index in 0..<7 {
            clock.advance(1)
            let account = TestAccount(tag)
            if index % 2 == 0 {
                let (_, pair) = try await server.verifiedAccount(tag)
                ids.append(server.accountID(pair))
            } else {
                try await server.signUp(account)
                ids.append(server.accountID(try await server.logIn(account)))
            }
        }
        clock.advance(1)
        let secured = try await server.accountWithSecondFactor(tag)
        ids.append(secured.pair.user.id.lowercasedText)
        let disabledID = ids[2]
        #expect(try await server.adminAction("disable", on: disabledID, token: op.access).status == 200)

        // Pages of two, while three more accounts of the prefix sign up between pages: a prefix
        // search goes in the nickname's order, so an arrival shows up only when its nickname comes
        // after the page it arrives at; none is shifted, repeated or skipped.
        var arrivals = 0
        let paged = try await all(server, "q=\(tag)", op.access, limit: 2) {
            guard arrivals < 3 else { return }
            arrivals += 1
            clock.advance(1)
            try await server.signUp(TestAccount(tag))
        }
        let inKeyOrder = { (users: [AdminUser]) in zip(users, users.dropFirst()).allSatisfy { $0.username.utf8.lexicographicallyPrecedes($1.username.utf8) } }
        #expect(Set(paged.map(\.id)).count == paged.count && inKeyOrder(paged), "no duplicates, in the nickname's order")
        #expect(Set(ids).isSubset(of: paged.map(\.id)), "no gaps")
        let everything = try await all(server, "q=\(tag)", op.access)
        #expect(everything.count == ids.count + 3 && inKeyOrder(everything))
        #expect(Set(paged.map(\.id)).isSubset(of: everything.map(\.id)))

        // Filters, alone and together, and the nickname's case-folded form.
        let base = try await all(server, "q=\(tag.uppercased())", op.access)
        #expect(base.map(\.id) == everything.map(\.id))
        #expect(try await all(server, "q=\(tag)&verified=true", op.access).map(\.id) == everything.filter(\.emailVerified).map(\.id))
        #expect(try await all(server, "q=\(tag)&verified=false", op.access).map(\.id) == everything.filter { !$0.emailVerified }.map(\.id))
        #expect(everything.filter(\.emailVerified).count == 5)
        #expect(try await all(server, "q=\(tag)&mfa=true", op.access).map(\.id) == [secured.pair.user.id.lowercasedText])
        #expect(try await all(server, "q=\(tag)&disabled=true", op.access).map(\.id) == [disabledID])
        #expect(try await all(server, "q=\(tag)&disabled=false&verified=true&mfa=false", op.access).count == 3)
        let disabledRow = try #require(everything.first { $0.id == disabledID })
        #expect(disabledRow.disabled && disabledRow.emailVerified && !disabledRow.mfaEnabled && disabledRow.lastLoginAt != nil)
        // Without the prefix the operator and every test account are there too; with the address
        // prefix (an `@` in `q`) exactly the one account.
        let unfiltered = try await all(server, "disabled=true", op.access)
        #expect(unfiltered.map(\.id) == [disabledID])
        let byAddress = try await all(server, "q=" + secured.account.email.uppercased().prefix(secured.account.email.count - 3), op.access)
        #expect(byAddress.map(\.id) == [secured.pair.user.id.lowercasedText])

        // Created between: strictly after the second account and before the sixth (the reply's
        // times are whole seconds, rounded down; accounts are more than a second apart).
        let times = ids.map { id in everything.first { $0.id == id }!.createdAt }
        let after = RFC3339Text.string(times[1].addingTimeInterval(1)), before = RFC3339Text.string(times[5])
        let between = try await all(server, "q=\(tag)&created_after=\(after)&created_before=\(before)", op.access)
        #expect(between.map(\.id) == everything.filter { ids[2..<5].contains($0.id) }.map(\.id), "\(between.map(\.username))")
        // Newest first without a prefix: a cursor of that order is refused for a prefix search,
        // and a nickname cursor for an address search.
        let newest = try await page(server, "disabled=false&limit=1", op.access)
        let keyed = try await page(server, "q=\(tag)&limit=1", op.access)
        for query in ["q=\(tag)&after=\(newest.next!)", "after=\(keyed.next!)", "q=\(tag)%40&after=\(keyed.next!)"] {
            let reply = try await server.adminSearch(query, token: op.access)
            #expect(reply.status == 400 && reply.problem?.code == .invalidRequest, "\(query): \(reply.text)")
        }

        // Bad filters are 400 and say nothing else.
        for query in [
            "verified=yes", "mfa=1", "disabled=", "created_after=yesterday", "created_before=2026-13-01T00:00:00Z",
            "q=" + String(repeating: "a", count: 255), "limit=0", "limit=101", "after=nope",
        ] {
            let reply = try await server.adminSearch(query, token: op.access)
            #expect(reply.status == 400 && reply.problem?.code == .invalidRequest, "\(query): \(reply.text)")
        }
        #expect(try await page(server, "q=\(tag)zzz", op.access) == AdminUserPage(users: [], next: nil))
        let raw = try await server.adminSearch("q=\(tag)&limit=1", token: op.access)
        let row = try #require((raw.object?["users"] as? [[String: Any]])?.first)
        #expect(Set(row.keys) == ["id", "username", "email", "mbti", "email_verified", "mfa_enabled", "disabled", "is_admin", "created_at", "last_login_at"])
        await server.stop()
    }
}

/// RFC 3339 text of a time, as the API writes it (whole seconds, `Z`).
enum RFC3339Text {
    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
