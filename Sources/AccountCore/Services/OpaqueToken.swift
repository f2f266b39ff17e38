import AccountAPI
import Sodium

/// A random token in clear, as handed to the client once, that the store knows only by the
/// SHA-256 of its text: a login's `mfa_token`, an email verification token. (Refresh tokens
/// are ``RefreshToken``s.)
package struct OpaqueToken: Sendable {
    package let text: String
    /// SHA-256 of the text: all the store ever keeps.
    package let hash: [UInt8]

    package init(text: String) {
        self.text = text
        hash = Digest.sha256(Array(text.utf8))
    }

    /// 256 bits of `random`, base64url.
    package static func random(_ random: Randomness) -> OpaqueToken { OpaqueToken(text: Base64URL.encode(random.bytes(32))) }
}
