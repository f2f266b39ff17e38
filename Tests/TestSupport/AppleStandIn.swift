import AccountAPI
import Foundation
import HTTPServer
import LibCrypto
import Sodium
import Synchronization

/// Apple's Sign in with Apple endpoints, in the test process on a loopback port: the JWKS
/// (`GET /auth/keys`), the token endpoint (`POST /auth/token`: an authorization code for a refresh
/// token) and the revoke endpoint (`POST /auth/revoke`).
///
/// Like Apple, the token and revoke endpoints check the client secret: an ES256 JWT signed by the
/// team's key (the public half of the `.p8` the server was given), `kid` the key id, `iss` the team,
/// `sub` the client id, `aud` `https://appleid.apple.com`, not expired. It signs identity tokens
/// with RSA keys it publishes, and can rotate them, publish none, or fail the next revokes.
///
/// In the test kit so the server's end-to-end tests and the SDK's (AccountKit's Sign in with Apple
/// against the in-process app) sign with the same Apple.
public final class AppleStandIn: Sendable {
    public static let teamID = "TEAM123456"
    public static let keyID = "KEY1234567"
    public static let clientID = "com.example.mbti"
    public static let otherClientID = "com.example.other"

    /// The team's key the server signs client secrets with (written to `keyFile`).
    public let teamKey: P256SigningKey
    public let keyFile: URL
    private let server: HTTPServer
    private let state: Shared

    /// The state the handler and the tests share.
    final class Shared: Sendable {
        let lock: Mutex<State>
        init(_ state: sending State) { lock = Mutex(state) }
        func withLock<T: Sendable>(_ body: (inout State) -> T) -> T { lock.withLock { body(&$0) } }
    }

    struct State {
        /// Signing keys by kid, newest last; the published ones are in `published`.
        var keys: [(kid: String, key: RSASigningKey)]
        var published: Set<String>
        var jwksFetches = 0
        /// Authorization codes issued, with the client id and the refresh token each gives.
        var codes: [String: (clientID: String, refresh: String)] = [:]
        var exchanged: [String] = []
        /// Refresh tokens revoked, in order, with their client ids.
        var revoked: [(token: String, clientID: String)] = []
        var revokeAttempts = 0
        var failNextRevokes = 0
        /// Why client secrets were refused (for the tests' messages).
        var refusals: [String] = []
    }

    public init(folder: TemporaryFolder) throws {
        teamKey = P256SigningKey.generate()
        keyFile = folder.url.appendingPathComponent("AuthKey_\(Self.keyID).p8")
        try teamKey.pkcs8PEM.write(to: keyFile, atomically: true, encoding: .utf8)
        let first = (kid: "apple-key-1", key: RSASigningKey.generate())
        let state = Shared(State(keys: [first], published: [first.kid]))
        self.state = state
        let teamKey = teamKey
        // Every answer, the token and revoke endpoints' too, is made on the server's own thread,
        // never in a task: the tests of the suite load the cooperative pool, and Apple must answer
        // within the server's 5 s.
        server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 1)) { request in
            .ready(Self.answer(request, state: state, teamKey: teamKey))
        }
        try server.start()
    }

    public var baseURL: String { "http://127.0.0.1:\(server.port)" }

    /// The server's Apple options: this stand-in's endpoints, the client ids and the team's key.
    public var serverArguments: [String] {
        [
            "--apple-client-id", Self.clientID, "--apple-client-id", Self.otherClientID,
            "--apple-jwks-url", baseURL + "/auth/keys", "--apple-token-url", baseURL + "/auth/token",
            "--apple-revoke-url", baseURL + "/auth/revoke",
            "--apple-key-file", keyFile.path, "--apple-key-id", Self.keyID, "--apple-team-id", Self.teamID,
        ]
    }

    public func stop() async { await server.shutdown() }

    // MARK: What tests do

    /// The claims of an identity token, as Apple sends them; each test spoils one.
    public struct Claims {
        public var iss = "https://appleid.apple.com"
        public var sub: String
        public var aud = AppleStandIn.clientID
        public var email: String
        /// `true`, `false`, or Apple's older string forms.
        public var emailVerified: Any = true
        public var isPrivateEmail: Any? = nil
        public var nonce: String?
        public var issuedAt: Date
        public var lifetime: TimeInterval = 600
    }

    /// Claims for Apple user `sub` with `email`, issued at `now`, for the raw `nonce`.
    public static func claims(sub: String, email: String, nonce: String, now: Date = Date()) -> Claims {
        Claims(sub: sub, email: email, nonce: hashedNonce(nonce), issuedAt: now)
    }

    /// What the app puts in its Apple request: SHA-256 of the raw nonce, lower-case hex.
    public static func hashedNonce(_ raw: String) -> String {
        Hex.encode(Digest.sha256(Array(raw.utf8)))
    }

    /// An identity token with `claims`, signed by the newest key (or the key `kid`, or unsigned
    /// by any published key when `signingKey` is given).
    public func identityToken(_ claims: Claims, kid: String? = nil, signingKey: RSASigningKey? = nil, header: [String: Any]? = nil) -> String {
        let (usedKid, key) = state.withLock { state -> (String, RSASigningKey) in
            if let kid, let found = state.keys.first(where: { $0.kid == kid }) { return (found.kid, found.key) }
            return (kid ?? state.keys.last!.kid, state.keys.last!.key)
        }
        var payload: [String: Any] = [
            "iss": claims.iss, "sub": claims.sub, "aud": claims.aud, "email": claims.email, "email_verified": claims.emailVerified,
            "iat": Int(claims.issuedAt.timeIntervalSince1970), "exp": Int(claims.issuedAt.timeIntervalSince1970 + claims.lifetime),
            "auth_time": Int(claims.issuedAt.timeIntervalSince1970), "nonce_supported": true,
        ]
        if let nonce = claims.nonce { payload["nonce"] = nonce }
        if let isPrivateEmail = claims.isPrivateEmail { payload["is_private_email"] = isPrivateEmail }
        let head = header ?? ["alg": "RS256", "kid": usedKid]
        let signed = Self.part(head) + "." + Self.part(payload)
        return signed + "." + Base64URL.encode((signingKey ?? key).sign(Array(signed.utf8)))
    }

    /// A new key, published and signing from now on; the old ones stay published unless `retire`.
    @discardableResult
    public func rotateKeys(retire: Bool = false) -> String {
        state.withLock { state in
            let kid = "apple-key-\(state.keys.count + 1)"
            if retire { state.published.removeAll() }
            state.keys.append((kid, RSASigningKey.generate()))
            state.published.insert(kid)
            return kid
        }
    }

    /// An authorization code the app would get with its identity token, for `clientID`.
    public func authorizationCode(clientID: String = AppleStandIn.clientID) -> (code: String, refreshToken: String) {
        let code = "c" + UUID().uuidString.lowercased()
        let refresh = "r" + UUID().uuidString.lowercased()
        state.withLock { $0.codes[code] = (clientID, refresh) }
        return (code, refresh)
    }

    /// The next `count` revokes answer 503.
    public func failNextRevokes(_ count: Int) { state.withLock { $0.failNextRevokes = count } }

    public var jwksFetches: Int { state.withLock { $0.jwksFetches } }
    public var revoked: [(token: String, clientID: String)] { state.withLock { $0.revoked } }
    public var revokeAttempts: Int { state.withLock { $0.revokeAttempts } }
    public var exchanged: [String] { state.withLock { $0.exchanged } }
    public var refusals: [String] { state.withLock { $0.refusals } }

    // MARK: Answering

    private static func answer(_ request: HTTPRequest, state: Shared, teamKey: P256SigningKey) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/auth/keys"):
            let published = state.withLock { state -> [(kid: String, key: RSASigningKey)] in
                state.jwksFetches += 1
                return state.keys.filter { state.published.contains($0.kid) }
            }
            let keys: [[String: Any]] = published.map { entry in
                [
                    "kty": "RSA", "kid": entry.kid, "use": "sig", "alg": "RS256",
                    "n": Base64URL.encode(entry.key.modulus), "e": Base64URL.encode(entry.key.exponent),
                ]
            }
            return json(["keys": keys])
        case ("POST", "/auth/token"):
            let form = Self.form(request.body)
            guard let clientID = form["client_id"], let secret = form["client_secret"] else { return oauthError("invalid_request") }
            if let refusal = checkSecret(secret, clientID: clientID, teamKey: teamKey) {
                state.withLock { $0.refusals.append("token: " + refusal) }
                return oauthError("invalid_client")
            }
            guard form["grant_type"] == "authorization_code", let code = form["code"] else { return oauthError("unsupported_grant_type") }
            let issued = state.withLock { state -> String? in
                guard let entry = state.codes.removeValue(forKey: code), entry.clientID == clientID else { return nil }
                state.exchanged.append(code)
                return entry.refresh
            }
            guard let issued else { return oauthError("invalid_grant") }
            return json(["access_token": "a" + UUID().uuidString, "token_type": "Bearer", "expires_in": 3600, "refresh_token": issued, "id_token": "x"])
        case ("POST", "/auth/revoke"):
            let form = Self.form(request.body)
            guard let clientID = form["client_id"], let secret = form["client_secret"], let token = form["token"] else {
                return oauthError("invalid_request")
            }
            if let refusal = checkSecret(secret, clientID: clientID, teamKey: teamKey) {
                state.withLock { $0.refusals.append("revoke: " + refusal) }
                return oauthError("invalid_client")
            }
            let failed = state.withLock { state -> Bool in
                state.revokeAttempts += 1
                guard state.failNextRevokes == 0 else {
                    state.failNextRevokes -= 1
                    return true
                }
                state.revoked.append((token, clientID))
                return false
            }
            return failed ? HTTPResponse(status: 503, body: Array("unavailable".utf8)) : HTTPResponse(status: 200)
        default:
            return HTTPResponse(status: 404)
        }
    }

    /// Why a client secret is not one the team's key made for `clientID` now; `nil` when it is.
    private static func checkSecret(_ secret: String, clientID: String, teamKey: P256SigningKey) -> String? {
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let claimBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2]),
            let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any],
            let claims = (try? JSONSerialization.jsonObject(with: Data(claimBytes))) as? [String: Any]
        else { return "malformed" }
        guard header["alg"] as? String == "ES256", header["kid"] as? String == keyID else { return "header" }
        guard let der = P256.derSignature(jose: signature),
            P256.verify(signature: der, message: Array((parts[0] + "." + parts[1]).utf8), x: teamKey.x, y: teamKey.y)
        else { return "signature" }
        guard claims["iss"] as? String == teamID else { return "iss" }
        guard claims["sub"] as? String == clientID else { return "sub" }
        guard claims["aud"] as? String == "https://appleid.apple.com" else { return "aud" }
        guard let exp = claims["exp"] as? Int, let iat = claims["iat"] as? Int, exp > iat, exp - iat <= 15_777_000 else { return "exp" }
        return nil
    }

    private static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1).map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            fields[halves[0]] = halves.count > 1 ? halves[1] : ""
        }
        return fields
    }

    private static func part(_ object: [String: Any]) -> String {
        Base64URL.encode([UInt8](try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
    }

    private static func json(_ object: [String: Any]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: [UInt8](try! JSONSerialization.data(withJSONObject: object)))
    }

    private static func oauthError(_ code: String) -> HTTPResponse {
        HTTPResponse(status: 400, headers: ["Content-Type": "application/json"], body: Array(#"{"error":"\#(code)"}"#.utf8))
    }
}
