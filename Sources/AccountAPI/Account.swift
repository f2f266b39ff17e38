import Foundation

/// `POST /auth/password/change`: a new password, with the step-up proof (``StepUpProof``) whose
/// password is the wire's `current_password`; every other session is revoked.
///
/// Fields are optional in the type so that a server can tell a missing field (`required`) from a
/// wrong one; clients use the initializer.
public struct ChangePasswordRequest: Codable, Hashable, Sendable {
    /// The password from now on (`new_password`), checked by ``PasswordRule``.
    public var newPassword: String?
    /// The step-up proof: the current password (`current_password`) or a passkey assertion, and
    /// while a second factor is on a code or a recovery code.
    public var proof: StepUpProof

    /// The password in use now (`current_password`).
    public var currentPassword: String? {
        get { proof.password }
        set { proof.password = newValue }
    }

    /// - Parameters:
    ///   - currentPassword: the password in use now.
    ///   - newPassword: the password from now on.
    ///   - code: an authenticator code, needed while a second factor is on.
    ///   - recoveryCode: a recovery code, instead of `code`.
    public init(currentPassword: String, newPassword: String, code: String? = nil, recoveryCode: String? = nil) {
        self.newPassword = newPassword
        proof = StepUpProof(password: currentPassword, code: code, recoveryCode: recoveryCode)
    }

    /// A new password with any step-up proof (a passkey assertion instead of the current password).
    public init(newPassword: String, proof: StepUpProof) {
        self.newPassword = newPassword
        self.proof = proof
    }

    enum CodingKeys: String, CodingKey {
        case newPassword = "new_password"
    }

    /// The wire name of the proof's password here.
    static let passwordKey = "current_password"

    public init(from decoder: any Decoder) throws {
        newPassword = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .newPassword)
        proof = try StepUpProof(from: decoder, passwordKey: Self.passwordKey)
    }

    public func encode(to encoder: any Encoder) throws {
        try proof.encode(to: encoder, passwordKey: Self.passwordKey)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(newPassword, forKey: .newPassword)
    }
}

/// `POST /auth/password/reset`: mails a reset code to `email` (202 whether or not it has an account).
public struct PasswordResetRequest: Codable, Hashable, Sendable {
    /// The account's address.
    public var email: String?

    /// - Parameter email: the account's address.
    public init(email: String) { self.email = email }
}

/// `POST /auth/password/reset/confirm`: sets a new password with the mailed code; every session ends.
public struct PasswordResetConfirmRequest: Codable, Hashable, Sendable {
    /// The account's address.
    public var email: String?
    /// The 6-digit code from the reset mail.
    public var code: String?
    /// The password from now on (`new_password`).
    public var newPassword: String?

    /// - Parameters:
    ///   - email: the account's address.
    ///   - code: the code from the reset mail.
    ///   - newPassword: the password from now on.
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

/// One login session of the account (`GET /auth/sessions`).
public struct SessionInfo: Codable, Hashable, Sendable, Identifiable {
    /// The session's id (`DELETE /auth/sessions/{id}` ends it).
    public let id: UUID
    /// When the login that opened it happened.
    public let createdAt: Date
    /// When it was last refreshed (or opened).
    public let lastUsedAt: Date
    /// The `User-Agent` of the login, naming the device, if it sent one.
    public let userAgent: String?
    /// Whether this is the session of the token that asked.
    public let current: Bool
    /// The address of the client that last used it (its login or latest refresh), as the server
    /// saw it; `nil` when unknown (a server that does not send it).
    public let clientAddress: String?

    /// A session as the server describes it.
    public init(id: UUID, createdAt: Date, lastUsedAt: Date, userAgent: String?, current: Bool, clientAddress: String? = nil) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.userAgent = userAgent
        self.current = current
        self.clientAddress = clientAddress
    }

    enum CodingKeys: String, CodingKey {
        case id
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case userAgent = "user_agent"
        case current
        case clientAddress = "client_address"
    }

    /// Encodes every member, `null` ones too (the id in lower case, as every id is written).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(lastUsedAt, forKey: .lastUsedAt)
        try container.encode(userAgent, forKey: .userAgent)
        try container.encode(current, forKey: .current)
        try container.encode(clientAddress, forKey: .clientAddress)
    }
}

/// Reply of `GET /auth/sessions`: the live sessions, newest first.
public struct SessionList: Codable, Hashable, Sendable {
    /// The account's live sessions, newest first.
    public let sessions: [SessionInfo]

    /// - Parameter sessions: the sessions, newest first.
    public init(sessions: [SessionInfo]) { self.sessions = sessions }
}
