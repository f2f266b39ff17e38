/// `GET /.well-known/jwks.json`: the public keys that verify access tokens (RFC 7517, RFC 8037).
public struct JWKSet: Codable, Hashable, Sendable {
    /// One Ed25519 public key (`kty` `OKP`, `crv` `Ed25519`).
    public struct Key: Codable, Hashable, Sendable {
        public let kty: String
        public let crv: String
        /// The public key, base64url without padding.
        public let x: String
        public let kid: String
        public let alg: String
        public let use: String

        public init(x: String, kid: String) {
            self.kty = "OKP"
            self.crv = "Ed25519"
            self.x = x
            self.kid = kid
            self.alg = "EdDSA"
            self.use = "sig"
        }
    }

    public let keys: [Key]

    public init(keys: [Key]) { self.keys = keys }
}
