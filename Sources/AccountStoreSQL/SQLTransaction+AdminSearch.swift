import AccountStore
import Foundation

/// The operators' account search (issue 17): one statement per shape of query (which filters it
/// has), each made once, so that each shape's plan is the one made for it.
///
/// Indexes (migration "admin search indexes"): `users_created (created_at, id)` for the order and
/// the time range, `users_verified_created (email_verified, created_at, id)`,
/// `users_mfa_created (totp_enabled, created_at, id)`, `users_disabled_created (created_at, id)
/// WHERE disabled_at IS NOT NULL`, and the unique keys `username_key` and `email_key` (compared
/// byte by byte on both backends, so a prefix is a range of the key's index).
///
/// A prefix is searched one of two ways, chosen by how many accounts it matches (counted on the
/// key's index, up to ``densePrefix``): a rare prefix by its range of the key's index, the few
/// rows sorted by time; a common one (`mi`) by walking the time index newest first, checking the
/// prefix on the way, which finds a page within a few thousand entries. Each way's statement
/// writes the conditions the other index would serve so that no index can serve them (`+ 0`,
/// `|| ''`, `CASE`), so both databases plan the way the count chose.
public enum AdminUserSearch {
    /// Which filters a query has; the statement depends on this alone, the values are bound.
    public struct Shape: Hashable, Sendable, CaseIterable {
        public enum Prefix: Int, Sendable, CaseIterable {
            case absent
            /// A nickname prefix matching fewer than ``densePrefix`` accounts: its key range.
            case nickname
            /// A nickname prefix matching many: the time index, the prefix checked on the way.
            case commonNickname
            case email
            case commonEmail
        }
        public var prefix: Prefix
        public var verified: Bool
        public var mfa: Bool
        /// `nil`: no filter; `true`/`false`: disabled or not (each its own SQL: a partial index
        /// serves the disabled ones).
        public var disabled: Bool?

        public static let allCases: [Shape] = Prefix.allCases.flatMap { prefix in
            [false, true].flatMap { verified in
                [false, true].flatMap { mfa in
                    [nil, false, true].map { Shape(prefix: prefix, verified: verified, mfa: mfa, disabled: $0) }
                }
            }
        }

        public init(prefix: Prefix, verified: Bool, mfa: Bool, disabled: Bool?) {
            self.prefix = prefix
            self.verified = verified
            self.mfa = mfa
            self.disabled = disabled
        }

        /// The shape of `query`; `common` says whether its prefix matches many accounts.
        public init(_ query: AdminUserQuery, common: Bool) {
            prefix = switch query.prefix {
            case nil: .absent
            case .nicknameKey: common ? .commonNickname : .nickname
            case .emailKey: common ? .commonEmail : .email
            }
            verified = query.verified != nil
            mfa = query.mfa != nil
            disabled = query.disabled
        }

        /// Whether the rows come from a key's range (and are sorted), not from a time index.
        public var searchesKeyRange: Bool { prefix == .nickname || prefix == .email }
    }

    /// From this many matching accounts on, a prefix is searched on the time index.
    public static let densePrefix = 5_000

    /// The columns of a row: the account, then when its newest session opened.
    static let rowColumns = UserSQL.columns + ", (SELECT MAX(s.created_at) FROM sessions s WHERE s.user_id = users.id)"

    /// The SQL of `shape`, with `?` for what ``parameters(_:after:limit:)`` binds, in that order.
    public static func text(_ shape: Shape) -> String {
        // Written so no index serves them when the rows come from a key's range.
        let unindexed = shape.searchesKeyRange
        var conditions = unindexed
            ? ["created_at + 0 > ?", "(created_at + 0, id || '') < (?, ?)"]
            : ["created_at > ?", "(created_at, id) < (?, ?)"]
        switch shape.prefix {
        case .absent: break
        case .nickname: conditions.append("username_key >= ? AND username_key < ?")
        case .email: conditions.append("email_key >= ? AND email_key < ?")
        case .commonNickname: conditions.append("username_key || '' >= ? AND username_key || '' < ?")
        case .commonEmail: conditions.append("email_key || '' >= ? AND email_key || '' < ?")
        }
        if shape.verified { conditions.append(unindexed ? "CASE WHEN email_verified THEN 1 ELSE 0 END = ?" : "email_verified = ?") }
        if shape.mfa { conditions.append(unindexed ? "CASE WHEN totp_enabled THEN 1 ELSE 0 END = ?" : "totp_enabled = ?") }
        switch shape.disabled {
        case nil: break
        case false?: conditions.append(unindexed ? "COALESCE(disabled_at, -1) < 0" : "disabled_at IS NULL")
        case true?: conditions.append(unindexed ? "COALESCE(disabled_at, -1) >= 0" : "disabled_at IS NOT NULL")
        }
        return "SELECT \(rowColumns) FROM users WHERE " + conditions.joined(separator: " AND ")
            + " ORDER BY created_at DESC, id DESC LIMIT ?"
    }

    /// The values `text(shape)` binds for `query`.
    public static func parameters(_ query: AdminUserQuery, _ shape: Shape, after: KeysetPosition?, limit: Int) -> [SQLValue] {
        // The upper end is a position: the cursor, or the start of `createdBefore` (no id is below
        // the empty text), whichever comes first; none: past every time.
        var upper: (Int64, String) = (Int64.max, "")
        if let before = query.createdBefore { upper = (Milliseconds.from(before), "") }
        if let after {
            let position = (Milliseconds.from(after.time), after.id.lowercasedText)
            if position < upper { upper = position }
        }
        var values: [SQLValue] = [.integer(query.createdAfter.map(Milliseconds.from) ?? Int64.min), .integer(upper.0), .text(upper.1)]
        if let range = keyRange(query) { values += [.text(range.0), .text(range.1)] }
        let flag: (Bool) -> SQLValue = { shape.searchesKeyRange ? .int($0 ? 1 : 0) : .bool($0) }
        if let verified = query.verified { values.append(flag(verified)) }
        if let mfa = query.mfa { values.append(flag(mfa)) }
        values.append(.int(limit))
        return values
    }

    /// The range of key texts that start with the query's prefix: from the prefix to the prefix
    /// followed by the last code point (byte by byte above every text that starts with it; keys
    /// are valid UTF-8 and never hold it).
    static func keyRange(_ query: AdminUserQuery) -> (String, String)? {
        switch query.prefix {
        case nil: nil
        case .nicknameKey(let prefix), .emailKey(let prefix): (prefix, prefix + "\u{10FFFF}")
        }
    }

    static let statements: [Shape: SQLStatement] = Dictionary(uniqueKeysWithValues: Shape.allCases.map { ($0, SQLStatement(text($0))) })
    static let byID = SQLStatement("SELECT \(rowColumns) FROM users WHERE id = ?")
    /// How many accounts a prefix matches, up to ``densePrefix``: read from the key's index alone.
    static let nicknameMatches = SQLStatement(
        "SELECT COUNT(*) FROM (SELECT 1 FROM users WHERE username_key >= ? AND username_key < ? LIMIT \(densePrefix)) AS matches")
    static let emailMatches = SQLStatement(
        "SELECT COUNT(*) FROM (SELECT 1 FROM users WHERE email_key >= ? AND email_key < ? LIMIT \(densePrefix)) AS matches")
}

extension SQLTransaction {
    public func adminUsers(_ query: AdminUserQuery, after: KeysetPosition?, limit: Int) throws -> [AdminUserRow] {
        var common = false
        if let range = AdminUserSearch.keyRange(query) {
            let counting = if case .emailKey = query.prefix { AdminUserSearch.emailMatches } else { AdminUserSearch.nicknameMatches }
            common = try first(counting, [.text(range.0), .text(range.1)]) { $0.int(0) } ?? 0 >= AdminUserSearch.densePrefix
        }
        let shape = AdminUserSearch.Shape(query, common: common)
        return try self.query(AdminUserSearch.statements[shape]!, AdminUserSearch.parameters(query, shape, after: after, limit: limit)) {
            try AdminUserRow(row: $0)
        }
    }

    public func adminUser(id: UUID) throws -> AdminUserRow? {
        try first(AdminUserSearch.byID, [.uuid(id)]) { try AdminUserRow(row: $0) }
    }
}

extension AdminUserRow {
    init(row: any SQLRow) throws {
        // The newest session's opening follows the account's columns (``AdminUserSearch/rowColumns``).
        self.init(user: try UserRecord(row: row), lastLoginAt: row.optionalDate(Int32(UserSQL.columnCount)))
    }
}
