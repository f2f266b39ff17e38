import CSodium

/// SHA-256, HMAC-SHA-256 and BLAKE2b.
public enum Digest {
    /// The 32-byte SHA-256 digest of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Sodium.initialize()
        var out = [UInt8](repeating: 0, count: crypto_hash_sha256_bytes())
        Sodium.checkInfallible(
            crypto_hash_sha256(&out, bytes, UInt64(bytes.count)), "crypto_hash_sha256")
        return out
    }

    /// The 32-byte HMAC-SHA-256 of `message` under `key`, for keys of any length (RFC 2104).
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        Sodium.initialize()
        // The one-shot crypto_auth_hmacsha256() insists on a 32-byte key; the streaming API
        // hashes longer keys and pads shorter ones as RFC 2104 says.
        var state = crypto_auth_hmacsha256_state()
        defer { sodium_memzero(&state, MemoryLayout.size(ofValue: state)) }
        var out = [UInt8](repeating: 0, count: crypto_auth_hmacsha256_bytes())
        Sodium.checkInfallible(
            crypto_auth_hmacsha256_init(&state, key, key.count), "crypto_auth_hmacsha256_init")
        Sodium.checkInfallible(
            crypto_auth_hmacsha256_update(&state, message, UInt64(message.count)),
            "crypto_auth_hmacsha256_update")
        Sodium.checkInfallible(
            crypto_auth_hmacsha256_final(&state, &out), "crypto_auth_hmacsha256_final")
        return out
    }

    /// The 32-byte BLAKE2b digest of `bytes` (libsodium's `crypto_generichash`, no key).
    ///
    /// As collision-resistant as SHA-256 and several times faster here (vectorized), for digests
    /// taken on every request.
    public static func blake2b256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBytes { input in out.withUnsafeMutableBytes { blake2b256(input, into: $0) } }
        return out
    }

    /// The same digest of the bytes at `bytes`, written into `out` (at least 32 bytes), for a
    /// caller that hashes on every request without making arrays.
    public static func blake2b256(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= 32, "a BLAKE2b-256 digest is 32 bytes")
        Sodium.initialize()
        Sodium.checkInfallible(
            crypto_generichash(
                out.baseAddress!.assumingMemoryBound(to: UInt8.self), 32, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                UInt64(bytes.count), nil, 0),
            "crypto_generichash")
    }
}
