import AccountAPI
import Foundation

/// The session as kept in a ``CredentialStore``: both tokens, when they expire, and the user.
///
/// Expiry times are computed on the device from `expires_in` and the device clock when the pair
/// arrives, so a wrong device clock cannot make a fresh token look expired (or the reverse).
/// Prints and dumps without its tokens or the user's email address.
public struct StoredSession: Codable, Hashable, Sendable {
    /// The access token (a JWT) for `Authorization: Bearer`.
    public let access: String
    /// The single-use refresh token.
    public let refresh: String
    /// When the access token expires, by the device clock.
    public let accessExpiresAt: Date
    /// When the refresh token (and its session) expires if unused, by the device clock.
    public let refreshExpiresAt: Date
    /// Seconds the access token was issued for; a leeway longer than half of it is shortened.
    public let accessLifetime: TimeInterval
    /// The signed-in user, as last seen.
    public var user: User

    /// A session from a login, sign-up or refresh reply received at `receivedAt`.
    public init(pair: TokenPair, receivedAt: Date) {
        access = pair.access
        refresh = pair.refresh
        accessLifetime = TimeInterval(pair.expiresIn)
        accessExpiresAt = receivedAt.addingTimeInterval(TimeInterval(pair.expiresIn))
        refreshExpiresAt = receivedAt.addingTimeInterval(TimeInterval(pair.refreshExpiresIn))
        user = pair.user
    }

    /// Whether the access token should be refreshed before use at `now`.
    ///
    /// The leeway is capped at half the token's lifetime: with a server that issues tokens shorter
    /// than the leeway, a fresh token would otherwise be refreshed again on every call.
    func needsRefresh(at now: Date, leeway: TimeInterval) -> Bool {
        accessExpiresAt.timeIntervalSince(now) <= min(leeway, accessLifetime / 2)
    }

    /// Whether the refresh token has run out, so the session is over.
    func isOver(at now: Date) -> Bool { refreshExpiresAt <= now }

    enum CodingKeys: String, CodingKey {
        case access, refresh, user
        case accessExpiresAt = "access_expires_at"
        case refreshExpiresAt = "refresh_expires_at"
        case accessLifetime = "access_lifetime"
    }

    static let encoder = AccountJSON.makeEncoder()
    static let decoder = AccountJSON.makeDecoder()
}

extension StoredSession: Redacting {
    package var redactedMembers: KeyValuePairs<String, Any> {
        ["access": Redaction.hidden, "refresh": Redaction.hidden, "accessExpiresAt": accessExpiresAt,
         "refreshExpiresAt": refreshExpiresAt, "accessLifetime": accessLifetime, "user": user]
    }
}
