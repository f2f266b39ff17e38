import Foundation

/// One operator action (issue 17), kept in the database in the transaction that did it.
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

    public init(id: UUID = UUID(), at: Date, actor: String, targetID: UUID?, action: String, reason: String?, requestID: String?) {
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
