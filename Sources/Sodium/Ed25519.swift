import CSodium

/// Ed25519 signature checks against a public key.
public enum Ed25519 {
    /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`;
    /// `false` when the signature is not 64 bytes or the key not 32.
    public static func verify(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        Sodium.initialize()
        guard signature.count == crypto_sign_bytes(),
            publicKey.count == crypto_sign_publickeybytes()
        else { return false }
        return Sodium.succeeded(
            crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey))
    }
}
