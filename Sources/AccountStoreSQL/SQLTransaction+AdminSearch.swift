import AccountStore
import Foundation

/// The operators' account search, made so that what a page reads is bounded by the
/// page, not by how many accounts there are or where the matches lie in time or in key order.
///
/// Indexes (migration `adminSearchAtScale`), each a pair of partial indexes, one for the enabled
/// accounts (`disabled_at IS NULL`) and one for the disabled: `users_search_created_*
/// (email_verified, totp_enabled, created_at, id, username_key, email_key, disabled_at)`,
/// `users_search_nickname_* (email_verified, totp_enabled, username_key, created_at, id,
/// disabled_at)` and `users_search_email_* (…, email_key, created_at, id, disabled_at)`
/// (`disabled_at` last so SQLite reads the window plans from the index alone). The keys compare
/// byte by byte on both databases, so a prefix is a range of a key's index.
///
/// Every filter is thus an equality on the leading columns of one index of the pair: a search
/// reads one **run** of an index for each combination of the filters it leaves open (two for
/// `verified` absent, …, eight for none; ``arms(_:)``), each run in the search's order with its
/// own `LIMIT`, and merges the runs' heads. No account that fails a filter is ever read, so
/// `disabled=true`, `mfa=true` and their combinations cost what the plain search costs.
///
/// The order is the one a run can give for the search: newest first without a prefix (the time
/// range is the run's range: ``Plan/newest``); by the prefixed key with one (the prefix is the
/// run's range). A prefix **and** a time window are two ranges, which no B-tree serves together;
/// the search counts the window's accounts (up to ``shortWindow``) and
/// - a short window is read whole on the time runs, the prefix checked in the index (both keys are
///   in it), the top of it by key taken (``Plan/shortWindow``): at most ``shortWindow`` entries;
/// - a wide one walks the key runs, the time checked in the index, reading at most
///   ``scanBudget`` entries of each run (``Plan/keyBudget``): a page then holds the matches of
///   that stretch, maybe fewer than asked or none, and the next page starts where the stretch
///   ended. Were it to read on until the page is full, a wide window whose accounts sit late in
///   key order (`q=u`, the newest tenth of a million `user<i>`) would read 900,000 entries.
public enum AdminUserSearch {
    /// The three flag filters; `nil` is either.
    public struct Filters: Hashable, Sendable, CaseIterable {
        public var verified: Bool?
        public var mfa: Bool?
        public var disabled: Bool?

        public init(verified: Bool?, mfa: Bool?, disabled: Bool?) {
            self.verified = verified
            self.mfa = mfa
            self.disabled = disabled
        }

        public init(_ query: AdminUserQuery) {
            self.init(verified: query.verified, mfa: query.mfa, disabled: query.disabled)
        }

        public static let allCases: [Filters] = [nil, false, true].flatMap { verified in
            [nil, false, true].flatMap { mfa in [nil, false, true].map { Filters(verified: verified, mfa: mfa, disabled: $0) } }
        }
    }

    /// Which unique key a prefix is of.
    public enum Key: Hashable, Sendable, CaseIterable {
        case nickname, email

        public var column: String { self == .nickname ? "username_key" : "email_key" }
        /// The name of its indexes (`users_search_<name>_enabled|disabled`).
        public var indexName: String { self == .nickname ? "nickname" : "email" }
    }

    /// How a search reads its indexes.
    public enum Plan: Hashable, Sendable {
        /// No prefix: newest first on the time runs, the window their range.
        case newest
        /// A prefix and no window: the key runs from the prefix (or `after` a cursor, exclusive).
        case keyRange(Key, after: Bool)
        /// A prefix and a window of fewer than ``shortWindow`` accounts: the window on the time
        /// runs, the prefix checked in the index, the first by key.
        case shortWindow(Key, after: Bool)
        /// A prefix and a wider window: at most ``scanBudget`` entries of each key run, the time
        /// checked in the index.
        case keyBudget(Key, after: Bool)

        public static let allCases: [Plan] = [.newest] + Key.allCases.flatMap { key in
            [false, true].flatMap { after in [.keyRange(key, after: after), .shortWindow(key, after: after), .keyBudget(key, after: after)] }
        }

        var key: Key? {
            switch self {
            case .newest: nil
            case .keyRange(let key, _), .shortWindow(let key, _), .keyBudget(let key, _): key
            }
        }
    }

    /// One statement per plan and filters.
    public struct Shape: Hashable, Sendable, CaseIterable {
        public var plan: Plan
        public var filters: Filters

        public init(plan: Plan, filters: Filters) {
            self.plan = plan
            self.filters = filters
        }

        public static let allCases: [Shape] = Plan.allCases.flatMap { plan in Filters.allCases.map { Shape(plan: plan, filters: $0) } }
    }

    /// A window with fewer accounts than this (in the runs of the filters) is read whole for a
    /// prefix; from this many on, the prefix's key runs are walked instead.
    public static let shortWindow = 5_000
    /// How many entries of each key run a page of ``Plan/keyBudget`` reads at most.
    public static let scanBudget = 2_000
    /// The most rows a page may ask for (the API's largest `limit`, and one to see past it).
    public static let maxRows = 101

    /// One run: an exact value of each flag, the condition that selects its partial index.
    public struct Arm: Hashable, Sendable {
        public var verified: Bool
        public var mfa: Bool
        public var disabled: Bool

        var condition: String {
            "email_verified = \(verified ? "TRUE" : "FALSE") AND totp_enabled = \(mfa ? "TRUE" : "FALSE") AND disabled_at IS "
                + (disabled ? "NOT NULL" : "NULL")
        }
    }

    /// The runs `filters` reads: every combination of the values it leaves open.
    public static func arms(_ filters: Filters) -> [Arm] {
        let values: (Bool?) -> [Bool] = { $0.map { [$0] } ?? [false, true] }
        return values(filters.verified).flatMap { verified in
            values(filters.mfa).flatMap { mfa in values(filters.disabled).map { Arm(verified: verified, mfa: mfa, disabled: $0) } }
        }
    }

    /// The columns of a row: the account, then when its newest session opened.
    static let lastLogin = "(SELECT MAX(s.created_at) FROM sessions s WHERE s.user_id = page.id)"

    /// The SQL of `shape`, with `?` for what ``parameters(_:_:after:limit:)`` binds, in that order.
    /// ``Plan/newest`` and ``Plan/keyRange(_:after:)`` return rows (``AdminUserRow/init(row:)``);
    /// the two window plans return index entries (``Entry``), whose rows ``rowsByID`` reads.
    public static func text(_ shape: Shape) -> String {
        let arms = arms(shape.filters)
        func union(_ arm: (Int, Arm) -> String) -> String {
            arms.enumerated().map { "SELECT * FROM (\(arm($0.offset, $0.element))) AS a\($0.offset)" }.joined(separator: " UNION ALL ")
        }
        switch shape.plan {
        case .newest:
            let found = union { _, arm in
                "SELECT \(UserSQL.columns) FROM users WHERE \(arm.condition) AND created_at > ? AND (created_at, id) < (?, ?) "
                    + "ORDER BY created_at DESC, id DESC LIMIT ?"
            }
            return "SELECT page.*, \(lastLogin) FROM (SELECT * FROM (\(found)) AS found ORDER BY created_at DESC, id DESC LIMIT ?) AS page "
                + "ORDER BY page.created_at DESC, page.id DESC"
        case .keyRange(let key, let after):
            let found = union { _, arm in
                "SELECT \(UserSQL.columns) FROM users WHERE \(arm.condition) AND \(key.column) \(after ? ">" : ">=") ? AND \(key.column) < ? "
                    + "ORDER BY \(key.column) LIMIT ?"
            }
            return "SELECT page.*, \(lastLogin) FROM (SELECT * FROM (\(found)) AS found ORDER BY \(key.column) LIMIT ?) AS page "
                + "ORDER BY page.\(key.column)"
        case .shortWindow(let key, let after):
            // The key written so that no key index serves it: the window's time runs are read.
            let searched = "\(key.column) || ''"
            return union { index, arm in
                "SELECT \(index) AS arm, \(searched) AS search_key, created_at, id FROM users WHERE \(arm.condition) "
                    + "AND created_at > ? AND created_at < ? AND \(searched) \(after ? ">" : ">=") ? AND \(searched) < ? ORDER BY \(searched) LIMIT ?"
            }
        case .keyBudget(let key, let after):
            return union { index, arm in
                "SELECT \(index) AS arm, \(key.column) AS search_key, created_at, id FROM users WHERE \(arm.condition) "
                    + "AND \(key.column) \(after ? ">" : ">=") ? AND \(key.column) < ? ORDER BY \(key.column) LIMIT ?"
            }
        }
    }

    /// The plan of `query` after `after`, given how many accounts its window holds (up to
    /// ``shortWindow``; `nil` when it was not counted: no prefix or no window).
    public static func plan(_ query: AdminUserQuery, after: AdminSearchPosition?, windowCount: Int?) -> Plan {
        guard let (key, prefix) = prefix(query) else { return .newest }
        let exclusive = lowerBound(prefix, after: after).exclusive
        guard hasWindow(query), let windowCount else { return .keyRange(key, after: exclusive) }
        return windowCount < shortWindow ? .shortWindow(key, after: exclusive) : .keyBudget(key, after: exclusive)
    }

    /// The values `text(shape)` binds for `query`.
    public static func parameters(_ query: AdminUserQuery, _ shape: Shape, after: AdminSearchPosition?, limit: Int) -> [SQLValue] {
        let armCount = arms(shape.filters).count
        let (lower, upper) = window(query)
        switch shape.plan {
        case .newest:
            // The upper end is a position: the cursor, or the start of `createdBefore` (no id is
            // below the empty text), whichever comes first.
            var end: (Int64, String) = (upper, "")
            if case .time(let position)? = after {
                let cursor = (Milliseconds.from(position.time), position.id.lowercasedText)
                if cursor < end { end = cursor }
            }
            let arm: [SQLValue] = [.integer(lower), .integer(end.0), .text(end.1), .int(limit)]
            return Array(Array(repeating: arm, count: armCount).joined()) + [.int(limit)]
        case .keyRange, .shortWindow, .keyBudget:
            let prefix = prefix(query)!.prefix
            let range: [SQLValue] = [.text(lowerBound(prefix, after: after).text), .text(prefix + "\u{10FFFF}")]
            let arm: [SQLValue] = switch shape.plan {
            case .keyRange: range + [.int(limit)]
            case .shortWindow: [.integer(lower), .integer(upper)] + range + [.int(limit)]
            default: range + [.int(scanBudget)]
            }
            let all = Array(Array(repeating: arm, count: armCount).joined())
            if case .keyRange = shape.plan { return all + [.int(limit)] }
            return all
        }
    }

    /// The prefix's key and text.
    static func prefix(_ query: AdminUserQuery) -> (key: Key, prefix: String)? {
        switch query.prefix {
        case nil: nil
        case .nicknameKey(let prefix): (.nickname, prefix)
        case .emailKey(let prefix): (.email, prefix)
        }
    }

    static func hasWindow(_ query: AdminUserQuery) -> Bool { query.createdAfter != nil || query.createdBefore != nil }

    /// The window's ends in milliseconds, both exclusive; the whole of time when absent.
    static func window(_ query: AdminUserQuery) -> (Int64, Int64) {
        (query.createdAfter.map(Milliseconds.from) ?? Int64.min, query.createdBefore.map(Milliseconds.from) ?? Int64.max)
    }

    /// Where a key run starts: after the cursor's key when it lies at or past the prefix, else at
    /// the prefix (inclusive). Keys compare byte by byte, as both databases compare them.
    static func lowerBound(_ prefix: String, after: AdminSearchPosition?) -> (text: String, exclusive: Bool) {
        switch after {
        case .nicknameKey(let key)?, .emailKey(let key)?:
            precedes(key, prefix) ? (prefix, false) : (key, true)
        default: (prefix, false)
        }
    }

    /// Byte order of UTF-8 (Swift's `<` on strings is not).
    static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// One index entry a window plan read.
    struct Entry {
        var arm: Int
        var key: String
        var createdAt: Int64
        var id: String
    }

    static let statements: [Shape: SQLStatement] = Dictionary(uniqueKeysWithValues: Shape.allCases.map { ($0, SQLStatement(text($0))) })
    static let byID = SQLStatement("SELECT \(UserSQL.columns), \(lastLogin) FROM users AS page WHERE id = ?")
    /// The rows of up to ``maxRows`` ids (the rest bound as NULL), in no order.
    static let rowsByID = SQLStatement(
        "SELECT \(UserSQL.columns), \(lastLogin) FROM users AS page WHERE id IN (\(Array(repeating: "?", count: maxRows).joined(separator: ", ")))")

    /// The SQL counting a window's accounts in the runs of `filters`, up to ``shortWindow`` a run.
    /// In time order, so that PostgreSQL reads each run's window on its index rather than
    /// scanning the table for the first rows it guesses would do (a window of the newest accounts
    /// lies at the table's end).
    public static func windowCountText(_ filters: Filters) -> String {
        let runs = arms(filters).enumerated().map { index, arm in
            "SELECT * FROM (SELECT 1 AS one FROM users WHERE \(arm.condition) AND created_at > ? AND created_at < ? "
                + "ORDER BY created_at LIMIT \(shortWindow)) AS a\(index)"
        }
        return "SELECT COUNT(*) FROM (\(runs.joined(separator: " UNION ALL "))) AS found"
    }

    static let windowCounts: [Filters: SQLStatement] = Dictionary(uniqueKeysWithValues: Filters.allCases.map {
        ($0, SQLStatement(windowCountText($0)))
    })
}

extension SQLTransaction {
    public func adminUsers(_ query: AdminUserQuery, after: AdminSearchPosition?, limit: Int) throws -> AdminSearchPage {
        typealias Search = AdminUserSearch
        precondition((1..<Search.maxRows).contains(limit), "a page holds 1 to \(Search.maxRows - 1) rows")
        if let after, !query.orders(after) { return AdminSearchPage(rows: [], next: nil) }
        let filters = Search.Filters(query)
        var windowCount: Int?
        if Search.prefix(query) != nil, Search.hasWindow(query) {
            let (lower, upper) = Search.window(query)
            let values = Array(Array(repeating: [SQLValue.integer(lower), .integer(upper)], count: Search.arms(filters).count).joined())
            windowCount = try first(Search.windowCounts[filters]!, values) { $0.int(0) } ?? 0
        }
        let shape = Search.Shape(plan: Search.plan(query, after: after, windowCount: windowCount), filters: filters)
        let statement = Search.statements[shape]!
        let parameters = Search.parameters(query, shape, after: after, limit: limit + 1)
        switch shape.plan {
        case .newest:
            let rows = try self.query(statement, parameters) { try AdminUserRow(row: $0) }
            let shown = Array(rows.prefix(limit))
            let next = rows.count > limit ? shown.last.map { AdminSearchPosition.time(KeysetPosition(time: $0.user.createdAt, id: $0.user.id)) } : nil
            return AdminSearchPage(rows: shown, next: next)
        case .keyRange(let key, _):
            let rows = try self.query(statement, parameters) { try AdminUserRow(row: $0) }
            let shown = Array(rows.prefix(limit))
            let next = rows.count > limit ? shown.last.map { Self.position(key, $0.user) } : nil
            return AdminSearchPage(rows: shown, next: next)
        case .shortWindow(let key, _), .keyBudget(let key, _):
            let entries = try self.query(statement, parameters) {
                Search.Entry(arm: $0.int(0), key: $0.text(1), createdAt: $0.int64(2), id: $0.text(3))
            }
            var matches = entries
            // Every run's entries up to the frontier were read; past it, only some runs'.
            var frontier: String?
            if case .keyBudget = shape.plan {
                let (lower, upper) = Search.window(query)
                for arm in Set(entries.map(\.arm)) {
                    let run = entries.filter { $0.arm == arm }.map(\.key)
                    // A run that filled its budget may go on past its last (greatest) key.
                    if run.count == Search.scanBudget, let last = run.max(by: Search.precedes), frontier.map({ Search.precedes(last, $0) }) ?? true {
                        frontier = last
                    }
                }
                matches = entries.filter { entry in
                    entry.createdAt > lower && entry.createdAt < upper && !(frontier.map { Search.precedes($0, entry.key) } ?? false)
                }
            }
            matches.sort { Search.precedes($0.key, $1.key) }
            let shown = Array(matches.prefix(limit))
            let next: AdminSearchPosition? = matches.count > limit ? shown.last.map { Self.position(key, $0.key) } : frontier.map { Self.position(key, $0) }
            let ids = shown.map { SQLValue.text($0.id) }
            let found = try self.query(AdminUserSearch.rowsByID, ids + Array(repeating: .null, count: Search.maxRows - ids.count)) {
                try AdminUserRow(row: $0)
            }
            let byID = Dictionary(found.map { ($0.user.id.lowercasedText, $0) }, uniquingKeysWith: { first, _ in first })
            return AdminSearchPage(rows: shown.compactMap { byID[$0.id] }, next: next)
        }
    }

    public func adminUser(id: UUID) throws -> AdminUserRow? {
        try first(AdminUserSearch.byID, [.uuid(id)]) { try AdminUserRow(row: $0) }
    }

    private static func position(_ key: AdminUserSearch.Key, _ user: UserRecord) -> AdminSearchPosition {
        position(key, key == .nickname ? user.usernameKey : user.emailKey)
    }

    private static func position(_ key: AdminUserSearch.Key, _ text: String) -> AdminSearchPosition {
        key == .nickname ? .nicknameKey(text) : .emailKey(text)
    }
}

extension AdminUserRow {
    init(row: any SQLRow) throws {
        // The newest session's opening follows the account's columns (``AdminUserSearch/lastLogin``).
        self.init(user: try UserRecord(row: row), lastLoginAt: row.optionalDate(Int32(UserSQL.columnCount)))
    }
}
