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

    /// A uniformly distributed number in `0..<upperBound` without modulo bias; 0 if `upperBound` < 2.
    public static func uniform(below upperBound: UInt32) -> UInt32 {
        Sodium.initialize()
        return randombytes_uniform(upperBound)
    }

    /// `n` random decimal digits, each drawn without bias, e.g. `"042917"` for `n = 6`.
    /// Leading zeros are kept; an empty string for `n` ≤ 0.
    public static func digits(_ n: Int) -> String {
        guard n > 0 else { return "" }
        let zero = UInt8(ascii: "0")
        return String(decoding: (0..<n).map { _ in zero + UInt8(uniform(below: 10)) }, as: UTF8.self)
    }
}
