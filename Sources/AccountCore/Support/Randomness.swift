import AccountStore
import Foundation
import Sodium
import Synchronization

/// Where the core's random values come from: secrets, one-time codes, tokens and the ids of the
/// rows it makes. A server draws from ``system``; a test may draw from ``seeded(_:)``, so that
/// what one run drew another draws again.
///
/// ```swift
/// let random = Randomness.seeded(7)
/// random.digits(6)   // the same six digits in every run seeded with 7
/// ```
package struct Randomness: Sendable {
    private let fill: @Sendable (Int) -> [UInt8]

    /// Randomness drawn from `fill`, which gives as many bytes as asked for (at least one).
    package init(bytes fill: @escaping @Sendable (Int) -> [UInt8]) {
        self.fill = fill
    }

    /// The operating system's generator (through libsodium): what a server runs with.
    package static let system = Randomness { SecureRandom.bytes(count: $0) }

    /// A generator that gives the same values for the same `seed` (SplitMix64): for tests only,
    /// never for a server.
    package static func seeded(_ seed: UInt64) -> Randomness {
        let state = Mutex(seed)
        return Randomness { count in
            state.withLock { state in
                var out: [UInt8] = []
                out.reserveCapacity(count + 7)
                while out.count < count {
                    state &+= 0x9E37_79B9_7F4A_7C15
                    var z = state
                    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                    z ^= z >> 31
                    withUnsafeBytes(of: z.littleEndian) { out.append(contentsOf: $0) }
                }
                return Array(out.prefix(count))
            }
        }
    }

    /// `count` random bytes; none for `count` ≤ 0.
    package func bytes(_ count: Int) -> [UInt8] {
        count > 0 ? fill(count) : []
    }

    /// A number in `0..<bound`, without modulo bias; 0 when `bound` < 2.
    package func uniform(below bound: UInt32) -> UInt32 {
        guard bound >= 2 else { return 0 }
        // Values below 2³² mod bound are refused, so every remainder is equally likely.
        let floor = (0 &- bound) % bound
        while true {
            let value = bytes(4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            if value >= floor { return value % bound }
        }
    }

    /// `count` random decimal digits, leading zeros kept (`"042917"`).
    package func digits(_ count: Int) -> String {
        guard count > 0 else { return "" }
        return String(decoding: (0..<count).map { _ in UInt8(ascii: "0") + UInt8(uniform(below: 10)) }, as: UTF8.self)
    }

    /// A random (version 4) id.
    package func uuid() -> UUID {
        let words = bytes(16).withUnsafeBytes { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
        return UUID(version4Bits: words)
    }
}
