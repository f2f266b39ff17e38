import Foundation

/// One operator action, kept in the database in the transaction that did it.
public struct AuditEventRecord: Sendable, Equatable {
    public var id: UUID
    public var at: Date
    /// Who did it: `account:<uuid>` for an operator of the console, `cli:<name>` for the terminal.
    public var actor: String
    /// The account acted on, if any (kept after the account is deleted).
    public var targetID: UUID?
    /// What was done: `admin_granted`, `account_disabled`, …
    public var action: String
    /// The operator's reason, as typed.
    public var reason: String?
    /// The `X-Request-Id` of the console request (`nil` from the terminal).
    public var requestID: String?

    public init(id: UUID, at: Date, actor: String, targetID: UUID?, action: String, reason: String?, requestID: String?) {
        self.id = id
        self.at = at
        self.actor = actor
        self.targetID = targetID
        self.action = action
        self.reason = reason
        self.requestID = requestID
    }
}

/// Where a keyset page starts: after the row with this sort value and id (exclusive).
public struct KeysetPosition: Sendable, Equatable {
    public var time: Date
    public var id: UUID
    public init(time: Date, id: UUID) {
        self.time = time
        self.id = id
    }
}

/// What the operators' account search asks for (`GET /admin/api/users`): every filter optional,
/// all of them together. Without a prefix newest first (`created_at`, then `id`, descending); with
/// one in the order of the prefixed key (byte by byte, ascending), see ``AdminSearchPosition``.
public struct AdminUserQuery: Sendable, Equatable {
    /// A prefix of one of the account's unique keys, already in the key's form.
    public enum Prefix: Sendable, Equatable {
        /// Of the nickname's case-folded key (``UserRecord/usernameKey``).
        case nicknameKey(String)
        /// Of the address's case-folded key (``UserRecord/emailKey``).
        case emailKey(String)
    }

    public var prefix: Prefix?
    /// ``UserRecord/emailVerified``.
    public var verified: Bool?
    /// ``UserRecord/totpEnabled``.
    public var mfa: Bool?
    /// Whether ``UserRecord/disabledAt`` is set.
    public var disabled: Bool?
    /// Accounts created strictly after this time.
    public var createdAfter: Date?
    /// Accounts created strictly before this time.
    public var createdBefore: Date?

    public init(
        prefix: Prefix? = nil, verified: Bool? = nil, mfa: Bool? = nil, disabled: Bool? = nil,
        createdAfter: Date? = nil, createdBefore: Date? = nil
    ) {
        self.prefix = prefix
        self.verified = verified
        self.mfa = mfa
        self.disabled = disabled
        self.createdAfter = createdAfter
        self.createdBefore = createdBefore
    }
}

/// Where a page of the operators' account search starts (exclusive), in the search's order.
public enum AdminSearchPosition: Sendable, Equatable {
    /// After this account, newest first: a search without a prefix.
    case time(KeysetPosition)
    /// After this nickname key: a search by nickname prefix.
    case nicknameKey(String)
    /// After this address key: a search by address prefix.
    case emailKey(String)
}

extension AdminUserQuery {
    /// Whether `position` is one of this query's order (a cursor of another order is refused).
    public func orders(_ position: AdminSearchPosition) -> Bool {
        switch (prefix, position) {
        case (nil, .time), (.nicknameKey?, .nicknameKey), (.emailKey?, .emailKey): true
        default: false
        }
    }
}

/// A page of the operators' account search: its rows, and where the next page starts (`nil` on
/// the last). A page may hold fewer rows than asked, even none, while `next` is set: a search
/// whose window and prefix are both wide reads a bounded stretch of its index per page
/// (``AdminSearchPosition``), so a page never costs more than that however the matches lie.
public struct AdminSearchPage: Sendable, Equatable {
    public var rows: [AdminUserRow]
    public var next: AdminSearchPosition?

    public init(rows: [AdminUserRow], next: AdminSearchPosition?) {
        self.rows = rows
        self.next = next
    }
}

/// An account as the operators' console lists it: the account and when it last signed in.
public struct AdminUserRow: Sendable, Equatable {
    public var user: UserRecord
    /// When the account's newest session was opened (a login), `nil` if it never had one.
    public var lastLoginAt: Date?

    public init(user: UserRecord, lastLoginAt: Date?) {
        self.user = user
        self.lastLoginAt = lastLoginAt
    }
}
