import Foundation

/// The claims of an access token (API.md "Tokens").
struct AccessClaims: Codable, Sendable, Equatable {
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

/// Claims as read from a token: `aud` may be a string or a list (RFC 7519 §4.1.3).
struct IncomingClaims: Decodable {
    var iss: String?
    var aud: [String]
    var sub: String?
    var sid: String?
    var iat: Double?
    var exp: Double?
    var nbf: Double?

    enum CodingKeys: String, CodingKey { case iss, aud, sub, sid, iat, exp, nbf }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        iss = try container.decodeIfPresent(String.self, forKey: .iss)
        if let one = try? container.decode(String.self, forKey: .aud) {
            aud = [one]
        } else {
            aud = (try container.decodeIfPresent([String].self, forKey: .aud)) ?? []
        }
        sub = try container.decodeIfPresent(String.self, forKey: .sub)
        sid = try container.decodeIfPresent(String.self, forKey: .sid)
        iat = try container.decodeIfPresent(Double.self, forKey: .iat)
        exp = try container.decodeIfPresent(Double.self, forKey: .exp)
        nbf = try container.decodeIfPresent(Double.self, forKey: .nbf)
    }
}
