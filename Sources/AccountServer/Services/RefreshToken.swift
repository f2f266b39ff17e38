import AccountAPI
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
