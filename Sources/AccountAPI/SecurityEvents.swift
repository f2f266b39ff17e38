import Foundation

/// What happened in a ``SecurityEvent``. The server may add kinds; a client shows an unknown
/// one generically (``SecurityEvent/kind`` is `nil`), never fails on it.
public enum SecurityEventKind: String, CaseIterable, Sendable {
    case loginSucceeded = "login_succeeded"
    /// A wrong password, or a wrong second-factor code, for this account.
    case loginFailed = "login_failed"
    case passwordChanged = "password_changed"
    case passwordReset = "password_reset"
    case mfaEnabled = "mfa_enabled"
    case mfaDisabled = "mfa_disabled"
    case recoveryCodeUsed = "recovery_code_used"
    case recoveryCodesReplaced = "recovery_codes_replaced"
    case passkeyAdded = "passkey_added"
    case passkeyRemoved = "passkey_removed"
    /// One or more sessions ended: a logout, a session ended from the list, a change that ends the
    /// other sessions, or a refresh token used twice. `detail` says why (`reason`) and how many.
    case sessionEnded = "session_ended"
    case accountDisabled = "account_disabled"
    case accountEnabled = "account_enabled"
    case appleLinked = "apple_linked"
    case appleUnlinked = "apple_unlinked"
}

/// One event of the signed-in account's security history (`GET /auth/security-events`).
public struct SecurityEvent: Codable, Hashable, Sendable, Identifiable {
    /// The event's id (lower-case UUID text).
    public let id: String
    /// When it happened.
    public let at: Date
    /// What happened: a ``SecurityEventKind`` raw value, or a kind this client does not know yet.
    public let type: String
    /// The address the request came from, if known.
    public let clientAddress: String?
    /// The device, as its `User-Agent` named it ("MBTI Playground 1.2 · iPhone15,2 · iOS 17.4"), if known.
    public let deviceName: String?
    /// A few more facts by name, all strings: `method` of a login (`password`, `totp`,
    /// `recovery_code`, `passkey`, `email_code`), `reason` and `count` of ended sessions, `name`
    /// of a passkey, `left` recovery codes. `nil` when there are none.
    public let detail: [String: String]?

    public init(id: String, at: Date, type: String, clientAddress: String?, deviceName: String?, detail: [String: String]? = nil) {
        self.id = id
        self.at = at
        self.type = type
        self.clientAddress = clientAddress
        self.deviceName = deviceName
        self.detail = detail
    }

    /// The kind, when this client knows it.
    public var kind: SecurityEventKind? { SecurityEventKind(rawValue: type) }

    enum CodingKeys: String, CodingKey {
        case id, at, type, detail
        case clientAddress = "client_address"
        case deviceName = "device_name"
    }

    /// Encodes every member, `null` included, as the contract lists them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(at, forKey: .at)
        try container.encode(type, forKey: .type)
        try container.encode(clientAddress, forKey: .clientAddress)
        try container.encode(deviceName, forKey: .deviceName)
        try container.encode(detail, forKey: .detail)
    }
}

/// A page of the security history, newest first; `next` is the `after` of the following page.
public struct SecurityEventPage: Codable, Hashable, Sendable {
    public let events: [SecurityEvent]
    public let next: String?

    public init(events: [SecurityEvent], next: String?) {
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
