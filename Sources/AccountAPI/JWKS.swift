/// `GET /.well-known/jwks.json`: the public keys that verify access tokens (RFC 7517, RFC 8037).
public struct JWKSet: Codable, Hashable, Sendable {
    /// One Ed25519 public key (`kty` `OKP`, `crv` `Ed25519`).
    public struct Key: Codable, Hashable, Sendable {
        /// Always `OKP`.
        public let kty: String
        /// Always `Ed25519`.
        public let crv: String
        /// The public key, base64url without padding.
        public let x: String
        /// The `kid` of the access tokens this key verifies.
        public let kid: String
        /// Always `EdDSA`.
        public let alg: String
        /// Always `sig`.
        public let use: String

        /// An Ed25519 signing key's public half `x` (base64url) named `kid`.
        public init(x: String, kid: String) {
            self.kty = "OKP"
            self.crv = "Ed25519"
            self.x = x
            self.kid = kid
            self.alg = "EdDSA"
            self.use = "sig"
        }
    }

    /// Every key that verifies access tokens still in use, the signing one among them.
    public let keys: [Key]

    /// - Parameter keys: the keys.
    public init(keys: [Key]) { self.keys = keys }
}
