/// Why an Apple identity token was refused: the security event's `reason`. The reply says only
/// `apple_token_invalid`, whichever check failed.
package enum AppleTokenRefusal: Error, Equatable, Sendable {
    /// Longer than ``AppleIdentityToken/maximumSize``.
    case tooLarge
    /// Not a compact JWS of JSON objects with the claims Apple sends.
    case malformed
    /// `alg` other than RS256.
    case algorithm
    /// No key of Apple's with this `kid`, even after asking again (or asked too recently).
    case unknownKey
    /// The signature is not the key's.
    case signature
    case issuer
    case audience
    case expired
    /// Valid for longer ahead than ``AppleIdentityVerifier/maximumLifetime``.
    case lifetime
    /// Issued in the future (beyond the allowed skew), or too long ago for the proof asked.
    case issuedAt
    case nonce
    case emailNotVerified
    /// The Apple user is not the one linked to the account (a proof for a sensitive change).
    case wrongUser
    /// Accepted before: each token is accepted once.
    case replayed

    package var reason: String {
        switch self {
        case .tooLarge: "too_large"
        case .malformed: "malformed"
        case .algorithm: "algorithm"
        case .unknownKey: "unknown_kid"
        case .signature: "signature"
        case .issuer: "iss"
        case .audience: "aud"
        case .expired: "exp"
        case .lifetime: "lifetime"
        case .issuedAt: "iat"
        case .nonce: "nonce"
        case .emailNotVerified: "email_verified"
        case .wrongUser: "sub"
        case .replayed: "replayed"
        }
    }
}
