import CSodium

/// Whether `a` and `b` hold the same bytes, in time that depends only on their length
/// (`sodium_memcmp`); `false` when the lengths differ. Use it for secrets such as MACs and codes.
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    Sodium.initialize()
    // Lengths are not secret here (tokens and digests have fixed, public sizes).
    guard a.count == b.count else { return false }
    return Sodium.succeeded(sodium_memcmp(a, b, a.count))
}
