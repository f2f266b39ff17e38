import AccountAPI
import AccountCore
import AccountStore
import Foundation
import Synchronization

/// Request ids the server makes for requests that came without one: UUID-shaped (version 4,
/// RFC 9562 variant), unique without a system call each.
///
/// `UUID()` reads the kernel's random source on every call, which showed in the profile of every
/// request. An id needs to be unique, not secret: 64 random bits fixed at start tell servers apart,
/// and a counter, scrambled by a bijection so ids do not run in visible sequence (a run of zeros
/// would look like a one-time code to anyone searching the logs for one), tells this server's
/// requests apart.
enum RequestIDs {
    private static let prefix: UInt64 = .random(in: .min ... .max)
    private static let key: UInt64 = .random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)

    /// The next id, like `1f0c93d2-7a41-4e5b-9c3e-58a1f07b62d4`.
    static func next() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        // Multiplying by an odd number and XOR with a constant are both one-to-one on the low 62
        // bits, so distinct counts (below 2^62) give distinct ids (the variant takes the top two bits).
        let mixed = (count &* 0x9E37_79B9_7F4A_7C15) ^ key
        return UUID(version4Bits: (prefix, mixed)).lowercasedText
    }
}
