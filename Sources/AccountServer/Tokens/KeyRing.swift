import AccountAPI
import AccountStore
import Foundation
import Sodium
import Synchronization

/// The signing keys in force: the newest signs, every key not yet expired verifies.
///
/// Keys live in the database so that several servers share them; the ring reloads when it sees an
/// unknown `kid` (another server rotated) and on a timer.
final class KeyRing: Sendable {
    struct Snapshot: Sendable {
        var signing: (kid: String, key: Ed25519SigningKey)
        var verifying: [String: [UInt8]]
        var jwks: JWKSet
        var loadedAt: Date
    }

    private let store: any AccountStore
    private let accessTTL: TimeInterval
    private let snapshot: Mutex<Snapshot?> = Mutex(nil)

    init(store: any AccountStore, accessTTL: TimeInterval) {
        self.store = store
        self.accessTTL = accessTTL
    }

    /// The current keys (loaded on first use).
    func current(now: Date) async throws -> Snapshot {
        if let snapshot = snapshot.withLock({ $0 }), now.timeIntervalSince(snapshot.loadedAt) < 30 { return snapshot }
        return try await reload(now: now)
    }

    /// Creates the first signing key when the database has none (once, at start).
    func ensureKey(now: Date) async throws {
        try await store.write { tx in
            if try tx.signingKeys().isEmpty { try tx.insertSigningKey(Self.newKey(now: now)) }
        }
    }

    /// Reads the keys again; a read, so the timer's reloads on the request path never take the
    /// write lock.
    @discardableResult
    func reload(now: Date) async throws -> Snapshot {
        let records = try await store.read { try $0.signingKeys() }
        let snapshot = try Self.snapshot(records, now: now, accessTTL: accessTTL)
        self.snapshot.withLock { $0 = snapshot }
        return snapshot
    }

    /// The public key for `kid`, reloading once if it is unknown.
    func verifyingKey(kid: String, now: Date) async throws -> [UInt8]? {
        let first = try await current(now: now)
        if let key = first.verifying[kid] { return key }
        guard now.timeIntervalSince(first.loadedAt) >= 1 else { return nil }
        return try await reload(now: now).verifying[kid]
    }

    /// A fresh Ed25519 key record; its `kid` is derived from the public key (RFC 7638 style, short).
    static func newKey(now: Date) -> SigningKeyRecord {
        let key = Ed25519SigningKey.generate()
        let kid = Base64URL.encode(Digest.sha256(key.publicKey).prefix(12))
        return SigningKeyRecord(kid: kid, seed: key.seed, publicKey: key.publicKey, createdAt: now)
    }

    private static func snapshot(_ records: [SigningKeyRecord], now: Date, accessTTL: TimeInterval) throws -> Snapshot {
        let live = records.filter { record in
            guard let retired = record.retiredAt else { return true }
            // A retired key verifies until the last token it signed has expired (plus clock skew).
            return now.timeIntervalSince(retired) < accessTTL + TokenService.clockSkew
        }
        guard let newest = records.filter({ $0.retiredAt == nil }).max(by: { $0.createdAt < $1.createdAt }) ?? records.last else {
            throw APIError.internalError
        }
        let signing = try Ed25519SigningKey(seed: newest.seed)
        var verifying: [String: [UInt8]] = [:]
        for record in live { verifying[record.kid] = record.publicKey }
        verifying[newest.kid] = newest.publicKey
        let jwks = JWKSet(keys: live.map { JWKSet.Key(x: Base64URL.encode($0.publicKey), kid: $0.kid) })
        return Snapshot(signing: (newest.kid, signing), verifying: verifying, jwks: jwks, loadedAt: now)
    }
}
