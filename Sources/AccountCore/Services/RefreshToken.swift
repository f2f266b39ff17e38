import AccountAPI
import Foundation
import Sodium

/// A refresh token: which session, which generation of the session's chain, a secret, and a tag
/// that only this server can make, as one base64url string the client treats as opaque.
///
/// Layout (72 bytes, 96 characters): a version byte (1), the session id (16 bytes), the generation
/// (8 bytes, big-endian), the secret (32 bytes), and the first 15 bytes of HMAC-SHA-256 over all
/// that under ``RefreshTokenKeys/tag``. The first token of a session has a random secret; each
/// next one's secret is the HMAC of the whole token before it under
/// ``RefreshTokenKeys/derivation``, so a repeat within the grace window derives the same
/// successor without it being stored. The store keeps only the current token's keyed hash
/// (``hash``) and generation, in the session's row; the tag tells a token this server issued from
/// a made-up one before the database is asked, so an older generation is known for reuse without
/// any old hash being kept, and nobody who knows a session id can end it with a forged token.
package struct RefreshToken: Sendable {
    package static let version: UInt8 = 1
    /// Bytes before the tag: version, session id, generation, secret.
    private static let signedLength = 1 + 16 + 8 + 32
    private static let tagLength = 15
    /// The length of every token's text.
    package static let textLength = (signedLength + tagLength) * 4 / 3

    package let sessionID: UUID
    package let generation: Int64
    /// The token as the client holds it.
    package let text: String
    /// Version, session id, generation and secret: what the tag, the hash and the successor cover.
    private let signed: [UInt8]

    /// A token of generation `generation` with `secret`, tagged under `keys`.
    private init(sessionID: UUID, generation: Int64, secret: [UInt8], keys: RefreshTokenKeys) {
        var signed = [Self.version]
        signed.reserveCapacity(Self.signedLength + Self.tagLength)
        withUnsafeBytes(of: sessionID.uuid) { signed += $0 }
        withUnsafeBytes(of: generation.bigEndian) { signed += $0 }
        signed += secret
        self.sessionID = sessionID
        self.generation = generation
        self.signed = signed
        text = Base64URL.encode(signed + Self.tag(signed, keys: keys))
    }

    /// The presented `text` if it is a token this server issued: exactly the layout above (96
    /// characters of base64url, version 1, a generation that is not negative) with the right tag;
    /// `nil` for anything else, before any database is asked.
    package init?(text: String, keys: RefreshTokenKeys) {
        guard text.utf8.count == Self.textLength, let bytes = Base64URL.decode(text),
            bytes.count == Self.signedLength + Self.tagLength, bytes[0] == Self.version
        else { return nil }
        let signed = Array(bytes[..<Self.signedLength])
        guard constantTimeEquals(Array(bytes[Self.signedLength...]), Self.tag(signed, keys: keys)) else { return nil }
        let generation = signed[17..<25].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        guard generation >= 0 else { return nil }
        sessionID = signed[1..<17].withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        self.generation = generation
        self.signed = signed
        self.text = text
    }

    /// The first token of a session (generation 0): a secret drawn from `random`.
    package static func first(sessionID: UUID, keys: RefreshTokenKeys, random: Randomness) -> RefreshToken {
        RefreshToken(sessionID: sessionID, generation: 0, secret: random.bytes(32), keys: keys)
    }

    /// The token that replaces this one (the next generation), the same every time it is asked.
    package func successor(keys: RefreshTokenKeys) -> RefreshToken {
        RefreshToken(
            sessionID: sessionID, generation: generation + 1,
            secret: Digest.hmacSHA256(key: keys.derivation, message: Array(text.utf8)), keys: keys)
    }

    /// What the store keeps of this token: HMAC-SHA-256 under ``RefreshTokenKeys/hash``.
    package func hash(keys: RefreshTokenKeys) -> [UInt8] {
        Digest.hmacSHA256(key: keys.hash, message: signed)
    }

    /// The `jti` of the access token issued with the refresh token `text` (stable for repeats).
    package static func accessTokenID(for text: String) -> String {
        Base64URL.encode(Digest.sha256(Array("jti:\(text)".utf8)).prefix(16))
    }

    private static func tag(_ signed: [UInt8], keys: RefreshTokenKeys) -> [UInt8] {
        Array(Digest.hmacSHA256(key: keys.tag, message: signed).prefix(tagLength))
    }
}

/// The keys of refresh tokens, all from the one server-wide secret `refresh_derivation_key`.
package struct RefreshTokenKeys: Sendable {
    /// Derives each token's successor (the stored secret itself).
    package let derivation: [UInt8]
    /// Tags a token, so a made-up one is refused before the database is asked.
    package let tag: [UInt8]
    /// Keys the hash the store keeps of a session's current token.
    package let hash: [UInt8]

    package init(derivation: [UInt8]) {
        self.derivation = derivation
        tag = Digest.hmacSHA256(key: derivation, message: Array("account-server refresh token tag".utf8))
        hash = Digest.hmacSHA256(key: derivation, message: Array("account-server refresh token hash".utf8))
    }
}
