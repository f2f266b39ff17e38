import Foundation
import Sodium
import Synchronization

/// Access tokens whose signature and claims were already checked, until they expire.
///
/// An Ed25519 verification is most of the work of a `/auth/me`, and a client presents the same
/// token for up to 15 minutes. Entries are keyed by the BLAKE2b-256 of the exact token bytes
/// (vectorized in libsodium, cheaper than SHA-256) and hold only what verification produced; whether the session is still live is checked on every
/// request regardless. Sharded so that concurrent requests rarely share a lock, and bounded: the
/// default 16,384 entries take about 1.5 MiB (a key is four words, not a heap array), and a token
/// that no longer fits is simply verified again.
package final class VerifiedTokenCache: Sendable {
    /// The BLAKE2b-256 digest of a token's bytes, held inline.
    package struct Key: Hashable, Sendable {
        /// The digest's 32 bytes, in memory order.
        package let words: (UInt64, UInt64, UInt64, UInt64)

        package static func == (lhs: Key, rhs: Key) -> Bool { lhs.words == rhs.words }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }

        /// Picks a shard from bits the dictionary's own hashing does not depend on.
        package var shardBits: Int { Int(truncatingIfNeeded: words.3 >> 32) }
    }

    private struct Entry {
        package let verified: TokenService.Verified
        package let validUntil: Date
    }

    private final class Shard: Sendable {
        package let entries = Mutex<[Key: Entry]>([:])
    }

    private let shards: [Shard]
    private let capacityPerShard: Int

    package init(shards: Int = 16, capacity: Int = 16_384) {
        self.shards = (0..<shards).map { _ in Shard() }
        capacityPerShard = max(1, capacity / shards)
    }

    /// The key of a token: the BLAKE2b-256 of its bytes, hashed where they lie.
    package static func key(_ token: String) -> Key {
        var token = token
        return token.withUTF8 { bytes in
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            withUnsafeMutableBytes(of: &words) { Digest.blake2b256(UnsafeRawBufferPointer(bytes), into: $0) }
            return Key(words: words)
        }
    }

    /// What verifying `key`'s token gave, if it was verified and is still valid at `now`.
    package func lookup(_ key: Key, now: Date) -> TokenService.Verified? {
        shard(for: key).entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.validUntil > now else {
                entries[key] = nil
                return nil
            }
            return entry.verified
        }
    }

    /// Remembers a verified token until `validUntil`.
    package func store(_ key: Key, _ verified: TokenService.Verified, validUntil: Date, now: Date) {
        shard(for: key).entries.withLock { entries in
            if entries.count >= capacityPerShard {
                entries = entries.filter { $0.value.validUntil > now }
                // Still full of live tokens: start over rather than grow.
                if entries.count >= capacityPerShard { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = Entry(verified: verified, validUntil: validUntil)
        }
    }

    /// How many tokens are remembered now.
    package var count: Int { shards.reduce(0) { $0 + $1.entries.withLock { $0.count } } }

    private func shard(for key: Key) -> Shard { shards[abs(key.shardBits % shards.count)] }
}
