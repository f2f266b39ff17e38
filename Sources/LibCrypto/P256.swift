import CLibCrypto

/// ES256 (RFC 7518 §3.4): ECDSA on the P-256 curve over SHA-256, by libcrypto.
///
/// Signatures are DER `ECDSA-Sig-Value`s, as WebAuthn authenticators send them (not JOSE's 64-byte
/// `r || s`). A public key is the point's affine coordinates, 32 bytes each (COSE's `x` and `y`).
///
/// ```swift
/// let key = P256SigningKey.generate()
/// let signature = key.sign(message)
/// P256.verify(signature: signature, message: message, x: key.x, y: key.y)  // true
/// ```
public enum P256 {
    /// A verified public key: a point on the curve. `nil` when either coordinate is not 32 bytes
    /// or the point is not on P-256 (or is the point at infinity).
    public static func publicKey(x: [UInt8], y: [UInt8]) -> P256PublicKey? {
        guard x.count == 32, y.count == 32 else { return nil }
        let point = [0x04] + x + y
        return EVPKey(taking: clibcrypto_p256_public_key(point, point.count)).map(P256PublicKey.init)
    }

    /// Whether `signature` (DER) is a valid ES256 signature of `message` by the key (`x`, `y`);
    /// `false` for a malformed key or signature too.
    public static func verify(signature: [UInt8], message: [UInt8], x: [UInt8], y: [UInt8]) -> Bool {
        publicKey(x: x, y: y)?.verify(signature: signature, message: message) ?? false
    }
}

/// A P-256 public key that passed libcrypto's checks.
public struct P256PublicKey: Sendable {
    let key: EVPKey

    /// Whether `signature` (DER `ECDSA-Sig-Value`) signs SHA-256(`message`) under this key.
    /// libcrypto accepts only the canonical DER of `(r, s)`, each in 1…n−1.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        // A DER P-256 signature is at most 72 bytes; anything longer is refused unread.
        guard signature.count <= 72 else { return false }
        return key.verifySHA256(signature: signature, message: message)
    }
}

/// A P-256 key pair, for signing ES256 (client secrets, software authenticators in tests).
public struct P256SigningKey: Sendable {
    let key: EVPKey
    /// The public point's x coordinate, 32 bytes.
    public let x: [UInt8]
    /// The public point's y coordinate, 32 bytes.
    public let y: [UInt8]

    /// A new key pair from libcrypto's random generator.
    public static func generate() -> P256SigningKey {
        let key = EVPKey.generate("EC") { EVP_PKEY_CTX_set_group_name($0, "prime256v1") }
        let point = key.octets("pub")
        precondition(point.count == 65 && point[0] == 0x04, "libcrypto gave a P-256 point not uncompressed")
        return P256SigningKey(key: key, x: Array(point[1..<33]), y: Array(point[33..<65]))
    }

    /// The DER ECDSA signature of SHA-256(`message`) (random `k`, so it differs each time).
    public func sign(_ message: [UInt8]) -> [UInt8] { key.signSHA256(message) }
}
