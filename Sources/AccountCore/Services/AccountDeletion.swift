import AccountStore
import Foundation

extension Services {
    /// Deletes the account `id` with everything that goes with it, in the caller's transaction: the
    /// one way an account is deleted, by its owner (`DELETE /auth/me`) or by an operator. The store
    /// removes its sessions, refresh tokens, codes, second factor and passkeys; its login back-off
    /// goes too, and a linked Apple ID's grant is queued for revocation at Apple (the outbox).
    /// Returns whether the account existed.
    package func deleteAccount(id: UUID, now: Date, in tx: any StoreTransaction) throws -> Bool {
        if let identity = try tx.appleIdentity(userID: id) {
            try apple.grants.queueRevocation(
                of: identity.sealedRefreshToken, subject: identity.subject, clientID: identity.clientID, in: tx, now: now)
        }
        let deleted = try tx.deleteUser(id: id)
        try throttle.clear(key: LoginThrottle.key(userID: id), in: tx)
        return deleted
    }
}
