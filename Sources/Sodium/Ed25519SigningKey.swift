import CSodium

/// An Ed25519 key pair made from a 32-byte seed; the seed is all that needs storing.
///
/// ```swift
/// let key = Ed25519SigningKey.generate()
/// let signature = key.sign(Array("hello".utf8))
/// Ed25519.verify(signature: signature, message: Array("hello".utf8), publicKey: key.publicKey)  // true
/// ```
public struct Ed25519SigningKey: Sendable {
    /// The 32-byte seed the key pair is derived from. Secret.
    public let seed: [UInt8]
    /// The 32-byte public key, safe to publish.
    public let publicKey: [UInt8]
    // libsodium's 64-byte secret key (seed followed by public key), kept so signing does not
    // re-derive the key pair each time.
    private let secretKey: [UInt8]

    /// Derives the key pair from `seed`.
    /// - Throws: ``SodiumError/invalidKey`` unless `seed` is exactly 32 bytes.
    public init(seed: [UInt8]) throws {
        try Sodium.initializeOrThrow()
        guard seed.count == crypto_sign_seedbytes() else { throw SodiumError.invalidKey }
        var publicKey = [UInt8](repeating: 0, count: crypto_sign_publickeybytes())
        var secretKey = [UInt8](repeating: 0, count: crypto_sign_secretkeybytes())
        try Sodium.check(crypto_sign_seed_keypair(&publicKey, &secretKey, seed), else: .invalidKey)
        self.seed = seed
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// A new key pair from a fresh random seed.
    public static func generate() -> Ed25519SigningKey {
        // No wiping here: the key keeps this very buffer as its `seed`.
        let seed = SecureRandom.bytes(count: crypto_sign_seedbytes())
        do {
            return try Ed25519SigningKey(seed: seed)
        } catch {
            preconditionFailure("a random seed of the right size was rejected: \(error)")
        }
    }

    /// Signs `message`, returning the 64-byte detached signature.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: crypto_sign_bytes())
        Sodium.checkInfallible(
            crypto_sign_detached(&signature, nil, message, UInt64(message.count), secretKey),
            "crypto_sign_detached")
        return signature
    }
}
