import AccountStore
import Foundation

extension Services {
    /// Deletes the account `id` with everything that goes with it, in the caller's transaction: the
    /// one way an account is deleted, by its owner (`DELETE /auth/me`) or by an operator. The store
    /// removes its sessions, refresh tokens, codes, second factor and passkeys; its login back-off
    /// goes too. Returns whether the account existed.
    func deleteAccount(id: UUID, in tx: any StoreTransaction) throws -> Bool {
        let deleted = try tx.deleteUser(id: id)
        try throttle.clear(key: LoginThrottle.key(userID: id), in: tx)
        return deleted
    }
}
