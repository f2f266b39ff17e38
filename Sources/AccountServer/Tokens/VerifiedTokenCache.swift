import Foundation
import Sodium
import Synchronization

/// Access tokens whose signature and claims were already checked, until they expire.
///
/// An Ed25519 verification costs about 56 µs here, most of a `/auth/me`; a client presents the
/// same token for up to 15 minutes. Entries are keyed by the BLAKE2b-256 of the exact token bytes
/// (SHA-256 took 8% of a cached `/auth/me`; BLAKE2b is vectorized here) and
/// hold only what verification produced; whether the session is still live is checked on every
/// request regardless. Sharded so that concurrent requests rarely share a lock, and bounded.
final class VerifiedTokenCache: Sendable {
    private struct Entry {
        let verified: TokenService.Verified
        let validUntil: Date
    }

    private final class Shard: Sendable {
        let entries = Mutex<[[UInt8]: Entry]>([:])
    }

    private let shards: [Shard]
    private let capacityPerShard: Int

    init(shards: Int = 16, capacity: Int = 65_536) {
        self.shards = (0..<shards).map { _ in Shard() }
        capacityPerShard = max(1, capacity / shards)
    }

    /// The key of a token: the BLAKE2b-256 of its bytes.
    static func key(_ token: String) -> [UInt8] { Digest.blake2b256(Array(token.utf8)) }

    /// What verifying `key`'s token gave, if it was verified and is still valid at `now`.
    func lookup(_ key: [UInt8], now: Date) -> TokenService.Verified? {
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
    func store(_ key: [UInt8], _ verified: TokenService.Verified, validUntil: Date, now: Date) {
        shard(for: key).entries.withLock { entries in
            if entries.count >= capacityPerShard {
                entries = entries.filter { $0.value.validUntil > now }
                // Still full of live tokens: start over rather than grow.
                if entries.count >= capacityPerShard { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = Entry(verified: verified, validUntil: validUntil)
        }
    }

    private func shard(for key: [UInt8]) -> Shard { shards[Int(key[0]) % shards.count] }
}
