import CBOR
import LibCrypto
import Sodium

/// The COSE algorithms a credential may use here, with their identifiers (RFC 9053, RFC 8812).
public enum COSEAlgorithm: Int, Sendable, CaseIterable {
    /// ECDSA on P-256 with SHA-256: what most passkeys use.
    case es256 = -7
    /// Ed25519.
    case eddsa = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256 (Windows Hello).
    case rs256 = -257
}

/// A credential's public key from its COSE_Key (RFC 9052 §7), checked when parsed: the key type
/// and curve fit the algorithm, the sizes are right, the point is on its curve, an RSA key is
/// 2048–8192 bits, and no private part is present.
public struct CredentialPublicKey: Sendable {
    enum Key: Sendable {
        case p256(P256PublicKey)
        case ed25519([UInt8])
        case rsa(RSAPublicKey)
    }

    public let algorithm: COSEAlgorithm
    /// The COSE_Key bytes exactly as the authenticator wrote them, what a server stores.
    public let encoded: [UInt8]
    let key: Key

    /// A stored key again.
    /// - Throws: ``WebAuthnError/malformedPublicKey`` or ``WebAuthnError/unsupportedAlgorithm``.
    public init(encoded: [UInt8]) throws(WebAuthnError) {
        guard let value = try? CBORDecoder.decode(encoded) else { throw .malformedPublicKey }
        try self.init(value, encoded: encoded)
    }

    init(_ value: CBOR, encoded: [UInt8]) throws(WebAuthnError) {
        // Labels: 1 kty, 3 alg; -1 crv or n, -2 x or e, -3 y, -4 d (private: never).
        guard value.map != nil, let type = value[1]?.int, let number = value[3]?.int else { throw .malformedPublicKey }
        guard let algorithm = COSEAlgorithm(rawValue: number) else { throw .unsupportedAlgorithm }
        guard value[-4] == nil else { throw .malformedPublicKey }
        switch algorithm {
        case .es256:
            guard type == 2, value[-1]?.int == 1, let x = value[-2]?.bytes, let y = value[-3]?.bytes,
                let key = P256.publicKey(x: x, y: y)
            else { throw .malformedPublicKey }
            self.key = .p256(key)
        case .eddsa:
            guard type == 1, value[-1]?.int == 6, let x = value[-2]?.bytes, x.count == 32 else { throw .malformedPublicKey }
            self.key = .ed25519(x)
        case .rs256:
            guard type == 3, let n = value[-1]?.bytes, let e = value[-2]?.bytes, let key = RSA.publicKey(modulus: n, exponent: e) else {
                throw .malformedPublicKey
            }
            self.key = .rsa(key)
        }
        self.algorithm = algorithm
        self.encoded = encoded
    }

    /// Whether `signature` is this key's signature of `message` (DER for ES256).
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        switch key {
        case .p256(let key): key.verify(signature: signature, message: message)
        case .ed25519(let key): Ed25519.verify(signature: signature, message: message, publicKey: key)
        case .rsa(let key): key.verify(signature: signature, message: message)
        }
    }
}
