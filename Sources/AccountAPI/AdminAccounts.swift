import Foundation

/// One account as the operators' search lists it (`GET /admin/api/users`); ids in lower case.
public struct AdminUser: Codable, Hashable, Sendable {
    public let id: String
    public let username: String
    public let email: String
    public let mbti: String
    public let emailVerified: Bool
    /// An authenticator app is on.
    public let mfaEnabled: Bool
    public let disabled: Bool
    public let isAdmin: Bool
    public let createdAt: Date
    /// When the account's newest session was opened; `nil` if it never signed in.
    public let lastLoginAt: Date?

    public init(
        id: String, username: String, email: String, mbti: String, emailVerified: Bool, mfaEnabled: Bool, disabled: Bool,
        isAdmin: Bool, createdAt: Date, lastLoginAt: Date?
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.mbti = mbti
        self.emailVerified = emailVerified
        self.mfaEnabled = mfaEnabled
        self.disabled = disabled
        self.isAdmin = isAdmin
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
    }

    enum CodingKeys: String, CodingKey {
        case id, username, email, mbti, disabled
        case emailVerified = "email_verified"
        case mfaEnabled = "mfa_enabled"
        case isAdmin = "is_admin"
        case createdAt = "created_at"
        case lastLoginAt = "last_login_at"
    }

    /// Encodes every member, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(username, forKey: .username)
        try container.encode(email, forKey: .email)
        try container.encode(mbti, forKey: .mbti)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encode(mfaEnabled, forKey: .mfaEnabled)
        try container.encode(disabled, forKey: .disabled)
        try container.encode(isAdmin, forKey: .isAdmin)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastLoginAt, forKey: .lastLoginAt)
    }
}

/// A page of the search, newest first; `next` is the cursor of the following page, if any.
public struct AdminUserPage: Codable, Hashable, Sendable {
    public let users: [AdminUser]
    public let next: String?

    public init(users: [AdminUser], next: String?) {
        self.users = users
        self.next = next
    }

    enum CodingKeys: String, CodingKey { case users, next }

    /// Encodes `next` as `null` on the last page.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(users, forKey: .users)
        try container.encode(next, forKey: .next)
    }
}

/// The account page's account: the search's row and when it was disabled.
public struct AdminUserDetail: Codable, Hashable, Sendable {
    public let row: AdminUser
    public let disabledAt: Date?

    public init(row: AdminUser, disabledAt: Date?) {
        self.row = row
        self.disabledAt = disabledAt
    }

    enum CodingKeys: String, CodingKey { case disabledAt = "disabled_at" }

    public init(from decoder: any Decoder) throws {
        row = try AdminUser(from: decoder)
        disabledAt = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Date.self, forKey: .disabledAt)
    }

    /// The row's members and `disabled_at` in one object, `null` included.
    public func encode(to encoder: any Encoder) throws {
        try row.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(disabledAt, forKey: .disabledAt)
    }
}

/// A live session on the account page.
public struct AdminSession: Codable, Hashable, Sendable {
    public let id: String
    /// The `User-Agent` of the login that opened it.
    public let deviceName: String?
    /// The address of the client that last used it (its login or latest refresh); `nil` when
    /// unknown (a session from before addresses were kept).
    public let clientAddress: String?
    public let createdAt: Date
    public let lastUsedAt: Date

    public init(id: String, deviceName: String?, clientAddress: String?, createdAt: Date, lastUsedAt: Date) {
        self.id = id
        self.deviceName = deviceName
        self.clientAddress = clientAddress
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case deviceName = "device_name"
        case clientAddress = "client_address"
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(deviceName, forKey: .deviceName)
        try container.encode(clientAddress, forKey: .clientAddress)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
    }
}

/// A passkey on the account page.
public struct AdminPasskey: Codable, Hashable, Sendable {
    public let id: String
    public let name: String
    public let createdAt: Date
    public let lastUsedAt: Date?

    public init(id: String, name: String, createdAt: Date, lastUsedAt: Date?) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
    }
}

/// The account's second factor on the account page.
public struct AdminSecondFactor: Codable, Hashable, Sendable {
    /// An authenticator app is on.
    public let totp: Bool
    public let recoveryCodesLeft: Int

    public init(totp: Bool, recoveryCodesLeft: Int) {
        self.totp = totp
        self.recoveryCodesLeft = recoveryCodesLeft
    }

    enum CodingKeys: String, CodingKey {
        case totp
        case recoveryCodesLeft = "recovery_codes_left"
    }
}

/// `GET /admin/api/users/{id}`: the account page.
public struct AdminAccountPage: Codable, Hashable, Sendable {
    public let user: AdminUserDetail
    /// Live sessions, newest first.
    public let sessions: [AdminSession]
    /// Oldest first.
    public let passkeys: [AdminPasskey]
    public let secondFactor: AdminSecondFactor
    /// The account's newest security events (at most 20), newest first.
    public let events: [SecurityEvent]

    public init(
        user: AdminUserDetail, sessions: [AdminSession], passkeys: [AdminPasskey], secondFactor: AdminSecondFactor,
        events: [SecurityEvent]
    ) {
        self.user = user
        self.sessions = sessions
        self.passkeys = passkeys
        self.secondFactor = secondFactor
        self.events = events
    }

    enum CodingKeys: String, CodingKey {
        case user, sessions, passkeys, events
        case secondFactor = "second_factor"
    }
}

/// The body of every action on an account (`POST /admin/api/users/{id}/…`).
public struct AdminActionRequest: Codable, Hashable, Sendable {
    /// Why, 1 to 500 characters; kept with the audit event.
    public let reason: String?

    public init(reason: String?) { self.reason = reason }

    /// The longest reason, in characters.
    public static let maxReasonLength = 500
}

/// `POST /admin/api/users/{id}/end-sessions`: how many sessions ended.
public struct AdminSessionsEnded: Codable, Hashable, Sendable {
    public let ended: Int
    public init(ended: Int) { self.ended = ended }
}
