import Foundation

/// `POST /auth/password/change`: needs the current password; every other session is revoked.
public struct ChangePasswordRequest: Codable, Hashable, Sendable {
    public var currentPassword: String?
    public var newPassword: String?

    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
    }
}

/// `POST /auth/password/reset`: mails a reset code to `email` (202 whether or not it has an account).
public struct PasswordResetRequest: Codable, Hashable, Sendable {
    public var email: String?

    public init(email: String) { self.email = email }
}

/// `POST /auth/password/reset/confirm`: sets a new password with the mailed code; every session ends.
public struct PasswordResetConfirmRequest: Codable, Hashable, Sendable {
    public var email: String?
    public var code: String?
    public var newPassword: String?

    public init(email: String, code: String, newPassword: String) {
        self.email = email
        self.code = code
        self.newPassword = newPassword
    }

    enum CodingKeys: String, CodingKey {
        case email, code
        case newPassword = "new_password"
    }
}

/// `DELETE /auth/me`: removes the account; the password confirms it.
public struct DeleteAccountRequest: Codable, Hashable, Sendable {
    public var password: String?

    public init(password: String) { self.password = password }
}

/// One login session of the account (`GET /auth/sessions`).
public struct SessionInfo: Codable, Hashable, Sendable, Identifiable {
    public let id: UUID
    public let createdAt: Date
    public let lastUsedAt: Date
    public let userAgent: String?
    /// Whether this is the session of the token that asked.
    public let current: Bool

    public init(id: UUID, createdAt: Date, lastUsedAt: Date, userAgent: String?, current: Bool) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.userAgent = userAgent
        self.current = current
    }

    enum CodingKeys: String, CodingKey {
        case id
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case userAgent = "user_agent"
        case current
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.lowercasedText, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(userAgent, forKey: .userAgent)
        try container.encode(current, forKey: .current)
    }
}

/// Reply of `GET /auth/sessions`: the live sessions, newest first.
public struct SessionList: Codable, Hashable, Sendable {
    public let sessions: [SessionInfo]

    public init(sessions: [SessionInfo]) { self.sessions = sessions }
}
