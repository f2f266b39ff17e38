import AccountAPI
import AccountStore
import Foundation
import Sodium

/// A refresh token in clear, as handed to the client once.
struct RefreshToken: Sendable {
    let text: String
    /// SHA-256 of the text: all the store ever keeps.
    let hash: [UInt8]

    init(text: String) {
        self.text = text
        hash = Digest.sha256(Array(text.utf8))
    }

    /// 256 random bits, base64url.
    static func random() -> RefreshToken { RefreshToken(text: Base64URL.encode(SecureRandom.bytes(count: 32))) }

    /// The token that replaces this one: HMAC of this one under the server's derivation key, so a
    /// repeat within the grace window gets the same successor without it being stored in clear.
    func successor(key: [UInt8]) -> RefreshToken {
        RefreshToken(text: Base64URL.encode(Digest.hmacSHA256(key: key, message: Array(text.utf8))))
    }

    /// The `jti` of the access token issued with this refresh token (stable for repeats).
    var accessTokenID: String { Base64URL.encode(Digest.sha256(Array("jti:\(text)".utf8)).prefix(16)) }
}

extension AccountApp {
    /// Opens a session with its first refresh token, inside the caller's transaction.
    func openSession(userID: UUID, userAgent: String?, now: Date, in tx: any StoreTransaction) throws -> (SessionRecord, RefreshToken) {
        let session = SessionRecord(
            id: UUID(), userID: userID, createdAt: now, lastUsedAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(configuration.sessionMaxTTL)),
            userAgent: userAgent.map { String($0.prefix(256)) })
        try tx.insertSession(session)
        let refresh = RefreshToken.random()
        try tx.insertRefreshToken(RefreshTokenRecord(hash: refresh.hash, sessionID: session.id, issuedAt: now))
        return (session, refresh)
    }

    /// The login reply for a session: a signed access token issued at `issuedAt` and the refresh token.
    func tokenPair(user: UserRecord, session: SessionRecord, refresh: RefreshToken, issuedAt: Date, now: Date) async throws -> TokenPair {
        let access = try await tokens.sign(userID: user.id, sessionID: session.id, issuedAt: issuedAt, jti: refresh.accessTokenID)
        let idleLeft = TimeInterval(configuration.sessionIdleTTL)
        let absoluteLeft = session.expiresAt.timeIntervalSince(now)
        return TokenPair(
            access: access, refresh: refresh.text,
            expiresIn: max(0, configuration.accessTTL - Int(now.timeIntervalSince(issuedAt))),
            refreshExpiresIn: max(0, Int(min(idleLeft, absoluteLeft))), user: user.wire)
    }
}

extension UserRecord {
    /// The account as the API shows it.
    var wire: User {
        User(id: id, username: username, email: email, emailVerified: emailVerified, mbti: MBTI(rawValue: mbti) ?? .infp, createdAt: createdAt)
    }
}
