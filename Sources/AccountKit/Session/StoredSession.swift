import AccountAPI
import Foundation

/// The session as kept in a ``CredentialStore``: both tokens, when they expire, and the user.
///
/// Expiry times are computed on the device from `expires_in` and the device clock when the pair
/// arrives, so a wrong device clock cannot make a fresh token look expired (or the reverse).
/// Prints and dumps without its tokens or the user's email address.
///
/// The stored record is a JSON object with a `version` (``recordVersion``), read leniently so
/// that an app and an extension built with different SDK versions share it: fields it does not
/// know are ignored, a record without `version` (written before there was one) is version 0, a
/// newer version is read for the fields this one knows, and a missing `access_lifetime` is fine.
/// Only the access token, the expiry times and the user are needed (the refresh token too, unless
/// the store keeps it apart); without one of them the record is unreadable, and the session
/// counts as signed out.
public struct StoredSession: Codable, Hashable, Sendable {
    /// The access token (a JWT) for `Authorization: Bearer`.
    public let access: String
    /// The single-use refresh token; empty while it is kept apart, behind the person's presence
    /// (``CredentialStore/refreshTokenStore``), and not read yet.
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

    private init(_ session: StoredSession, refresh: String) {
        access = session.access
        self.refresh = refresh
        accessExpiresAt = session.accessExpiresAt
        refreshExpiresAt = session.refreshExpiresAt
        accessLifetime = session.accessLifetime
        user = session.user
    }

    /// This session with `token` as its refresh token (empty: kept apart, not read).
    func replacingRefresh(with token: String) -> StoredSession { StoredSession(self, refresh: token) }

    /// Whether `other` is this same pair (its refresh token may be read or not).
    func isSamePair(as other: StoredSession) -> Bool { access == other.access }

    /// Whether the access token should be refreshed before use at `now`.
    ///
    /// The leeway is capped at half the token's lifetime: with a server that issues tokens shorter
    /// than the leeway, a fresh token would otherwise be refreshed again on every call.
    func needsRefresh(at now: Date, leeway: TimeInterval) -> Bool {
        accessExpiresAt.timeIntervalSince(now) <= min(leeway, accessLifetime / 2)
    }

    /// Whether the refresh token has run out, so the session is over.
    func isOver(at now: Date) -> Bool { refreshExpiresAt <= now }

    /// The version of the record this SDK writes. A new version only adds fields, so every
    /// earlier SDK still reads it.
    public static let recordVersion = 1

    enum CodingKeys: String, CodingKey {
        case version, access, refresh, user
        case accessExpiresAt = "access_expires_at"
        case refreshExpiresAt = "refresh_expires_at"
        case accessLifetime = "access_lifetime"
    }

    /// Reads a record of any version (see the type's documentation).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        access = try container.decode(String.self, forKey: .access)
        // Missing while it is kept apart (``CredentialStore/refreshTokenStore``).
        refresh = try container.decodeIfPresent(String.self, forKey: .refresh) ?? ""
        accessExpiresAt = try container.decode(Date.self, forKey: .accessExpiresAt)
        refreshExpiresAt = try container.decode(Date.self, forKey: .refreshExpiresAt)
        // Unknown: the leeway is not capped.
        accessLifetime = (try? container.decodeIfPresent(TimeInterval.self, forKey: .accessLifetime)) ?? .greatestFiniteMagnitude
        user = try container.decode(User.self, forKey: .user)
    }

    /// Writes the record in ``recordVersion``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.recordVersion, forKey: .version)
        try container.encode(access, forKey: .access)
        if !refresh.isEmpty { try container.encode(refresh, forKey: .refresh) }
        try container.encode(accessExpiresAt, forKey: .accessExpiresAt)
        try container.encode(refreshExpiresAt, forKey: .refreshExpiresAt)
        try container.encode(accessLifetime, forKey: .accessLifetime)
        try container.encode(user, forKey: .user)
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
