/// Why an access token was refused: the check that failed, as the token layer knows it.
///
/// The HTTP layer maps it to the API's error in one place (``APIError/init(_:)``: `token_expired`
/// or `token_invalid`, whose body says no more) and writes ``description`` in the request's log
/// line. Every reason is a fixed text, never a part of the token.
///
/// ```swift
/// throw TokenError.invalidClaim("aud", "not this server's audience")
/// ```
package enum TokenError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a token of ours in form, before any key is looked at: which check failed.
    case malformed(Malformation)
    /// `kid` names no key of ours, even after reloading the keys.
    case unknownKey
    /// The signature does not verify with the key `kid` names.
    case badSignature
    /// A claim is missing or wrong: its name, and why.
    case invalidClaim(_ name: String, _ reason: String)
    /// `exp` has passed, beyond the clock skew.
    case expired

    /// The form check a malformed token failed.
    package enum Malformation: String, Sendable {
        case tooLong = "longer than 4096 bytes"
        case parts = "not three parts separated by dots"
        case encoding = "a part is not canonical unpadded base64url"
        case signatureLength = "the signature is not 64 bytes"
        case json = "the header or the claims are not one JSON object without repeated names"
        case headerParameter = "a header parameter other than alg, typ and kid"
        case header = "the header does not decode"
        case algorithm = "alg is not EdDSA"
        case type = "typ is not at+jwt"
        case claims = "the claims do not decode"
    }

    /// The reason as a log line gives it: `malformed: alg is not EdDSA`, `claim aud: …`.
    package var description: String {
        switch self {
        case .malformed(let check): "malformed: \(check.rawValue)"
        case .unknownKey: "unknown key"
        case .badSignature: "bad signature"
        case .invalidClaim(let name, let reason): "claim \(name): \(reason)"
        case .expired: "expired"
        }
    }
}
