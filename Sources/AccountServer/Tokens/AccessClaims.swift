import Foundation

/// The claims of an access token (docs/API.md, "Tokens and codes").
struct AccessClaims: Codable, Sendable, Equatable {
    /// How the session was authenticated (RFC 8176): `["pwd"]`, `["pwd", "otp"]` or
    /// `["pwd", "recovery_code"]`.
    var amr: [String]
    var iss: String
    var aud: String
    /// The user id.
    var sub: String
    /// The session id.
    var sid: String
    var iat: Int
    var exp: Int
    var nbf: Int?
    var jti: String
}

/// The JOSE header of an access token.
struct AccessTokenHeader: Codable, Sendable, Equatable {
    var alg: String
    var typ: String
    var kid: String
}

/// Claims as read from a token.
struct IncomingClaims: Decodable {
    var iss: String?
    var aud: Audience?
    var sub: String?
    var sid: String?
    var iat: Double?
    var exp: Double?
    var nbf: Double?
}

/// The `aud` of a token: one string or a list of them (RFC 7519 §4.1.3).
struct Audience: Decodable {
    let names: [String]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(String.self) {
            names = [one]
        } else {
            names = try container.decode([String].self)
        }
    }
}
