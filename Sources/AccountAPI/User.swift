import Foundation

/// The account as clients see it (`GET /auth/me`, and `user` in a login reply).
public struct User: Codable, Hashable, Sendable, Identifiable {
    public let id: UUID
    /// The nickname, shown as it was entered (after NFC and trimming).
    public let username: String
    public let email: String
    public let emailVerified: Bool
    public let mbti: MBTI
    public let createdAt: Date

    public init(id: UUID, username: String, email: String, emailVerified: Bool, mbti: MBTI, createdAt: Date) {
        self.id = id
        self.username = username
        self.email = email
        self.emailVerified = emailVerified
        self.mbti = mbti
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, username, email
        case emailVerified = "email_verified"
        case mbti
        case createdAt = "created_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // RFC 4122 asks for lower-case hex on output; Foundation's default is upper case.
        try container.encode(id.lowercasedText, forKey: .id)
        try container.encode(username, forKey: .username)
        try container.encode(email, forKey: .email)
        try container.encode(emailVerified, forKey: .emailVerified)
        try container.encode(mbti, forKey: .mbti)
        try container.encode(createdAt, forKey: .createdAt)
    }
}
