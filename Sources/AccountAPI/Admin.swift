import Foundation

/// One operator action (ids in lower case) as `GET /admin/api/audit` shows it.
public struct AdminAuditEvent: Codable, Hashable, Sendable {
    public let id: String
    public let at: Date
    /// `account:<id>` for an operator of the console, `cli:<name>` for the server's command line.
    public let actor: String
    public let targetId: String?
    public let action: String
    public let reason: String?
    public let requestId: String?

    public init(id: String, at: Date, actor: String, targetId: String?, action: String, reason: String?, requestId: String?) {
        self.id = id
        self.at = at
        self.actor = actor
        self.targetId = targetId
        self.action = action
        self.reason = reason
        self.requestId = requestId
    }

    enum CodingKeys: String, CodingKey {
        case id, at, actor, action, reason
        case targetId = "target_id"
        case requestId = "request_id"
    }

    /// Encodes every member, `null` included, as the contract lists them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(at, forKey: .at)
        try container.encode(actor, forKey: .actor)
        try container.encode(targetId, forKey: .targetId)
        try container.encode(action, forKey: .action)
        try container.encode(reason, forKey: .reason)
        try container.encode(requestId, forKey: .requestId)
    }
}

/// A page of the audit log, newest first; `next` is the cursor of the following page, if any.
public struct AdminAuditPage: Codable, Hashable, Sendable {
    public let events: [AdminAuditEvent]
    public let next: String?

    public init(events: [AdminAuditEvent], next: String?) {
        self.events = events
        self.next = next
    }

    /// Encodes `next` as `null` on the last page.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(events, forKey: .events)
        try container.encode(next, forKey: .next)
    }

    enum CodingKeys: String, CodingKey { case events, next }
}
