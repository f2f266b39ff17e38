import AccountAPI
import AccountStore
import Foundation
import Sodium
import Synchronization

/// The signing keys in force: the newest signs, every key not yet expired verifies.
///
/// Keys live in the database so that several servers share them; the ring reloads when it sees an
/// unknown `kid` (another server rotated), and when a request finds its keys read more than 30
/// seconds ago (no timer: an idle server reads them at its next request). Seeds are stored
/// through the server's ``SecretSeal`` (sealed when it has a key file); only the newest, which
/// signs, is ever opened.
package final class KeyRing: Sendable {
    package struct Snapshot: Sendable {
        package var signing: (kid: String, key: Ed25519SigningKey)
        package var verifying: [String: [UInt8]]
        package var jwks: JWKSet
        package var loadedAt: Date
    }

    private let store: any AccountStore
    private let accessTTL: TimeInterval
    private let seal: SecretSeal
    private let snapshot: Mutex<Snapshot?> = Mutex(nil)

    package init(store: any AccountStore, accessTTL: TimeInterval, seal: SecretSeal) {
        self.store = store
        self.accessTTL = accessTTL
        self.seal = seal
    }

    /// The current keys (loaded on first use).
    package func current(now: Date) async throws -> Snapshot {
        if let snapshot = snapshot.withLock({ $0 }), now.timeIntervalSince(snapshot.loadedAt) < 30 { return snapshot }
        return try await reload(now: now)
    }

    /// Creates the first signing key when the database has none (once, at start).
    package func ensureKey(now: Date) async throws {
        let seal = seal
        try await store.write { tx in
            if try tx.signingKeys().isEmpty { try tx.insertSigningKey(Self.newKey(now: now, seal: seal)) }
        }
    }

    /// Adds a key that signs from `now` on and retires the others (`account-server keys rotate`);
    /// returns its `kid`.
    package static func rotate(in store: any AccountStore, seal: SecretSeal, now: Date) async throws -> String {
        let key = newKey(now: now, seal: seal)
        try await store.write { tx in
            try tx.insertSigningKey(key)
            try tx.retireSigningKeys(except: key.kid, at: key.createdAt)
        }
        return key.kid
    }

    /// Reads the keys again; a read, so the reloads on the request path never take the write lock.
    @discardableResult
    package func reload(now: Date) async throws -> Snapshot {
        let records = try await store.read { try $0.signingKeys() }
        let snapshot = try Self.snapshot(records, now: now, accessTTL: accessTTL, seal: seal)
        self.snapshot.withLock { $0 = snapshot }
        return snapshot
    }

    /// The public key for `kid`, reloading once if it is unknown.
    package func verifyingKey(kid: String, now: Date) async throws -> [UInt8]? {
        let first = try await current(now: now)
        if let key = first.verifying[kid] { return key }
        guard now.timeIntervalSince(first.loadedAt) >= 1 else { return nil }
        return try await reload(now: now).verifying[kid]
    }

    /// A fresh Ed25519 key record, its seed as `seal` stores it; its `kid` is derived from the
    /// public key (RFC 7638 style, short).
    package static func newKey(now: Date, seal: SecretSeal) -> SigningKeyRecord {
        let key = Ed25519SigningKey.generate()
        let kid = Base64URL.encode(Digest.sha256(key.publicKey).prefix(12))
        return SigningKeyRecord(kid: kid, seed: seal.seal(key.seed, context: SecretSeal.context(signingKey: kid)), publicKey: key.publicKey, createdAt: now)
    }

    private static func snapshot(_ records: [SigningKeyRecord], now: Date, accessTTL: TimeInterval, seal: SecretSeal) throws -> Snapshot {
        let live = records.filter { record in
            guard let retired = record.retiredAt else { return true }
            // A retired key verifies until the last token it signed has expired (plus clock skew).
            return now.timeIntervalSince(retired) < accessTTL + TokenService.clockSkew
        }
        guard let newest = records.filter({ $0.retiredAt == nil }).max(by: { $0.createdAt < $1.createdAt }) ?? records.last else {
            throw APIError.internalError
        }
        let signing = try Ed25519SigningKey(seed: seal.open(newest.seed, context: SecretSeal.context(signingKey: newest.kid)))
        // A seed that opens but is not the public key's (a row altered by hand) must not sign.
        guard signing.publicKey == newest.publicKey else { throw SecretsError.cannotOpen(SecretSeal.context(signingKey: newest.kid)) }
        var verifying: [String: [UInt8]] = [:]
        for record in live { verifying[record.kid] = record.publicKey }
        verifying[newest.kid] = newest.publicKey
        let jwks = JWKSet(keys: live.map { JWKSet.Key(x: Base64URL.encode($0.publicKey), kid: $0.kid) })
        return Snapshot(signing: (newest.kid, signing), verifying: verifying, jwks: jwks, loadedAt: now)
    }
}
