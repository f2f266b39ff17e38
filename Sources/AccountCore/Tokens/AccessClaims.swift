import Foundation

/// The claims of an access token (docs/API.md, "Tokens and codes").
package struct AccessClaims: Codable, Sendable, Equatable {
    /// How the session was authenticated (RFC 8176): `["pwd"]`, `["pwd", "otp"]` or
    /// `["pwd", "recovery_code"]`.
    package var amr: [String]
    package var iss: String
    package var aud: String
    /// The user id.
    package var sub: String
    /// The session id.
    package var sid: String
    package var iat: Int
    package var exp: Int
    package var nbf: Int?
    package var jti: String
}

/// The JOSE header of an access token.
package struct AccessTokenHeader: Codable, Sendable, Equatable {
    package var alg: String
    package var typ: String
    package var kid: String
}

/// Claims as read from a token.
package struct IncomingClaims: Decodable {
    package var iss: String?
    package var aud: Audience?
    package var sub: String?
    package var sid: String?
    package var iat: Double?
    package var exp: Double?
    package var nbf: Double?
}

/// The `aud` of a token: one string or a list of them (RFC 7519 §4.1.3).
package struct Audience: Decodable {
    package let names: [String]

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(String.self) {
            names = [one]
        } else {
            names = try container.decode([String].self)
        }
    }
}
