import AccountAPI
import Foundation

/// An Apple identity token taken apart, before any check of what it says: the compact JWS's
/// three parts, its header and its claims.
package struct AppleIdentityToken: Sendable {
    /// A token longer than this is refused unread (Apple's are about 1 KB).
    package static let maximumSize = 8 * 1024

    package let header: Header
    package let claims: Claims
    /// `header.payload` as sent: what the signature signs.
    package let signedPart: [UInt8]
    package let signature: [UInt8]

    package struct Header: Decodable {
        package let alg: String
        package let kid: String
    }

    /// The claims Apple sends (https://developer.apple.com/documentation/sign_in_with_apple/authenticating-users-with-sign-in-with-apple).
    package struct Claims: Decodable {
        package let iss: String
        package let sub: String
        package let aud: Audience
        package let exp: Double
        package let iat: Double
        package let nonce: String?
        package let email: String?
        /// Apple sends a JSON boolean, or (in older tokens) the string `"true"`/`"false"`.
        package let emailVerified: LenientBool?
        package let isPrivateEmail: LenientBool?

        package enum CodingKeys: String, CodingKey {
            case iss, sub, aud, exp, iat, nonce, email
            case emailVerified = "email_verified"
            case isPrivateEmail = "is_private_email"
        }
    }

    /// `aud`: one string, or (RFC 7519) an array of them.
    package struct Audience: Decodable {
        package let values: [String]
        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) { values = [one] } else { values = try container.decode([String].self) }
        }
    }

    /// A boolean sent as `true` or as `"true"`.
    package struct LenientBool: Decodable {
        package let value: Bool
        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                value = flag
            } else {
                let text = try container.decode(String.self)
                guard text == "true" || text == "false" else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a boolean")
                }
                value = text == "true"
            }
        }
    }

    /// Takes `text` apart. Both JSON parts must be single objects with no repeated member (see
    /// ``JOSEJSON``), so no other parser could read them differently.
    package init(_ text: String) throws(AppleTokenRefusal) {
        guard text.utf8.count <= Self.maximumSize else { throw .tooLarge }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(String(parts[0])), let claimBytes = Base64URL.decode(String(parts[1])),
            let signature = Base64URL.decode(String(parts[2])),
            JOSEJSON.memberNames(headerBytes) != nil, JOSEJSON.memberNames(claimBytes) != nil
        else { throw .malformed }
        let decoder = JSONDecoder()
        do {
            header = try decoder.decode(Header.self, from: Data(headerBytes))
            claims = try decoder.decode(Claims.self, from: Data(claimBytes))
        } catch {
            throw .malformed
        }
        signedPart = Array(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }
}
