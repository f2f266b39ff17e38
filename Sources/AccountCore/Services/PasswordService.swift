import Foundation
import Sodium
import Workers

/// Argon2id hashing on its own bounded pool, so requests that need no hash never wait behind one.
package struct PasswordService: Sendable {
    package let hasher: PasswordHasher
    package let pool: WorkerPool<Void>
    /// A hash of a random password, verified against when the account does not exist, so an
    /// unknown login costs the same as a known one.
    package let dummyHash: String
    /// Argon2id runs so far (hashes and checks): what a request cost in hashing, for tests that
    /// prove a path does not hash.
    package let runs = MetricCounter()

    package init(parameters: PasswordHasher.Parameters, threads: Int, random: Randomness) throws {
        hasher = PasswordHasher(parameters: parameters)
        // A full queue, or a pool stopped at shutdown, is a 503 the client may retry in a second.
        pool = WorkerPool(
            name: "argon2", threads: threads, queueLimit: 256 * max(1, threads), stackSize: 1 << 20, background: true
        ) { _ in
            APIError.serviceUnavailable(retryAfter: 1)
        }
        dummyHash = try hasher.hash(Hex.encode(random.bytes(16)))
    }

    /// Hashes a new password (its NFC form, so the same text typed on another keyboard that
    /// composes Hangul differently still matches).
    package func hash(_ password: String) async throws -> String {
        let hasher = hasher
        let normalized = password.precomposedStringWithCanonicalMapping
        return try await onPool { try hasher.hash(normalized) }
    }

    /// Checks `password` against `phc`, or against the dummy hash when there is no account or the
    /// account has no password (an empty hash: made with Apple), so every wrong answer costs the same.
    package func verify(_ password: String, against phc: String?) async throws -> Bool {
        let hasher = hasher
        let stored = phc.flatMap { $0.isEmpty ? nil : $0 }
        let target = stored ?? dummyHash
        let normalized = password.precomposedStringWithCanonicalMapping
        let matches = try await onPool { hasher.verify(normalized, against: target) }
        return matches && stored != nil
    }

    /// Whether a stored hash was made with other parameters than today's.
    package func needsRehash(_ phc: String) -> Bool { hasher.needsRehash(phc) }

    private func onPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        runs.add()
        return try await pool.run { _ in try work() }
    }
}
