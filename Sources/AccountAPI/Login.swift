/// `POST /auth/login`: exactly one of `username`, `email` or `login` (either), and `password`.
public struct LoginRequest: Codable, Hashable, Sendable {
    /// The nickname (any letter case or width).
    public var username: String?
    /// The email address (any letter case).
    public var email: String?
    /// A nickname or an email address; the server tells them apart by the `@`.
    public var login: String?
    /// The password.
    public var password: String?

    /// Give exactly one of `username`, `email` or `login`; the server refuses two (`invalid_request`).
    public init(username: String? = nil, email: String? = nil, login: String? = nil, password: String) {
        self.username = username
        self.email = email
        self.login = login
        self.password = password
    }

    /// Logs in with a nickname or an email address, whichever `identifier` is.
    public static func identifier(_ identifier: String, password: String) -> LoginRequest {
        LoginRequest(login: identifier, password: password)
    }
}

/// `POST /auth/refresh`: trade a refresh token for a new pair.
public struct RefreshRequest: Codable, Hashable, Sendable {
    /// The refresh token of the last login or refresh.
    public var refresh: String?

    /// - Parameter refresh: the refresh token of the last login or refresh.
    public init(refresh: String) { self.refresh = refresh }
}

/// Reply of login, refresh and a verified sign-up: the access and refresh tokens and the user.
///
/// `access` and `refresh` are top-level fields, as the original app reads them.
public struct TokenPair: Codable, Hashable, Sendable {
    /// A short-lived JWT for `Authorization: Bearer`.
    public let access: String
    /// An opaque single-use token for `POST /auth/refresh`.
    public let refresh: String
    /// Always `"Bearer"`.
    public let tokenType: String
    /// Seconds until `access` expires.
    public let expiresIn: Int
    /// Seconds until `refresh` (and its session) expires if unused.
    public let refreshExpiresIn: Int
    /// The signed-in account.
    public let user: User

    /// A pair as the server sends it.
    public init(access: String, refresh: String, tokenType: String = "Bearer", expiresIn: Int, refreshExpiresIn: Int, user: User) {
        self.access = access
        self.refresh = refresh
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshExpiresIn = refreshExpiresIn
        self.user = user
    }

    enum CodingKeys: String, CodingKey {
        case access, refresh
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshExpiresIn = "refresh_expires_in"
        case user
    }
}

/// Which sessions `POST /auth/logout` ends.
public enum LogoutScope: String, Codable, Sendable, CaseIterable {
    /// Only the session of the token used (the default).
    case local
    /// Every session of the account except this one.
    case others
    /// Every session of the account.
    case global
}
