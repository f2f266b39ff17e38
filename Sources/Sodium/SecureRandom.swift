import CSodium

/// Cryptographically secure random values from the operating system (via libsodium).
public enum SecureRandom {
    /// `count` random bytes; an empty array for `count` ≤ 0.
    public static func bytes(count: Int) -> [UInt8] {
        Sodium.initialize()
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        randombytes_buf(&out, count)
        return out
    }
}
