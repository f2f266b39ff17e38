import AccountAPI
import Sodium

/// A random token in clear, as handed to the client once, that the store knows only by the
/// SHA-256 of its text: a login's `mfa_token`, an email verification token, and the refresh
/// tokens sessions had before they kept their current one themselves (``RefreshToken``).
struct OpaqueToken: Sendable {
    let text: String
    /// SHA-256 of the text: all the store ever keeps.
    let hash: [UInt8]

    init(text: String) {
        self.text = text
        hash = Digest.sha256(Array(text.utf8))
    }

    /// 256 random bits, base64url.
    static func random() -> OpaqueToken { OpaqueToken(text: Base64URL.encode(SecureRandom.bytes(count: 32))) }

    /// The refresh token from before that replaced this one when it was used: HMAC of this one
    /// under the server's derivation key, which a repeat within the grace window gets again.
    func legacySuccessor(key: [UInt8]) -> OpaqueToken {
        OpaqueToken(text: Base64URL.encode(Digest.hmacSHA256(key: key, message: Array(text.utf8))))
    }
}
