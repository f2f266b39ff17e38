import CLibCrypto

/// RS256 (RFC 7518 §3.3): RSASSA-PKCS1-v1_5 over SHA-256, by libcrypto.
///
/// A public key is its modulus `n` and exponent `e` as unsigned big-endian bytes (COSE's `n` and
/// `e`, JWK's after base64url).
public enum RSA {
    /// The smallest modulus accepted: 2048 bits (NIST SP 800-131A; 1024-bit keys are refused).
    public static let minimumModulusBits = 2048
    /// The largest modulus accepted: 8192 bits, so a key cannot make a check arbitrarily slow.
    public static let maximumModulusBits = 8192

    /// A verified public key, or `nil` when the modulus has a leading zero byte or is outside
    /// 2048…8192 bits, the exponent is longer than 8 bytes, has a leading zero or is even or 1,
    /// or libcrypto's public-key check refuses it.
    public static func publicKey(modulus: [UInt8], exponent: [UInt8]) -> RSAPublicKey? {
        guard let first = modulus.first, first != 0,
            (minimumModulusBits...maximumModulusBits).contains(modulus.count * 8 - first.leadingZeroBitCount),
            let lead = exponent.first, lead != 0, exponent.count <= 8,
            let last = exponent.last, last & 1 == 1, exponent != [1]
        else { return nil }
        return EVPKey(taking: clibcrypto_rsa_public_key(modulus, modulus.count, exponent, exponent.count))
            .map { RSAPublicKey(key: $0, modulusBytes: modulus.count) }
    }

    /// Whether `signature` is a valid RS256 signature of `message` by (`modulus`, `exponent`);
    /// `false` for a malformed key or signature too.
    public static func verify(signature: [UInt8], message: [UInt8], modulus: [UInt8], exponent: [UInt8]) -> Bool {
        publicKey(modulus: modulus, exponent: exponent)?.verify(signature: signature, message: message) ?? false
    }
}

/// An RSA public key that passed the checks of ``RSA/publicKey(modulus:exponent:)``.
public struct RSAPublicKey: Sendable {
    let key: EVPKey
    let modulusBytes: Int

    /// Whether `signature` is the RSASSA-PKCS1-v1_5 SHA-256 signature of `message` under this key;
    /// it must be exactly as long as the modulus.
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        guard signature.count == modulusBytes else { return false }
        return key.verifySHA256(signature: signature, message: message)
    }
}

/// An RSA key pair, for signing RS256 (software authenticators and token issuers in tests).
public struct RSASigningKey: Sendable {
    let key: EVPKey
    /// The modulus, unsigned big-endian.
    public let modulus: [UInt8]
    /// The public exponent (65537), unsigned big-endian.
    public let exponent: [UInt8]

    /// A new key pair of `bits` (2048 unless given) with exponent 65537.
    public static func generate(bits: Int = 2048) -> RSASigningKey {
        let key = EVPKey.generate("RSA") { EVP_PKEY_CTX_set_rsa_keygen_bits($0, Int32(bits)) }
        return RSASigningKey(key: key, modulus: key.bigNumber("n"), exponent: key.bigNumber("e"))
    }

    /// The RSASSA-PKCS1-v1_5 SHA-256 signature of `message`.
    public func sign(_ message: [UInt8]) -> [UInt8] { key.signSHA256(message) }
}
