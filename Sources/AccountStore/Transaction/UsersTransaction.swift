import Foundation

/// Accounts (`users`): the account records and their unique keys.
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol UsersTransaction {
    /// Adds an account; throws `.conflict(field: "username" | "email")` if a key is taken.
    func insertUser(_ user: UserRecord) throws
    func user(id: UUID) throws -> UserRecord?
    /// The account `id`, read in order to change it or to open a session for it: locked for the
    /// rest of the transaction where the backend has row locks, so two changes of one account run
    /// one after the other (a profile edit never writes back a password hash a concurrent change
    /// replaced) and a session is never opened for an account deleted in the meantime.
    func lockUser(id: UUID) throws -> UserRecord?
    func user(usernameKey: String) throws -> UserRecord?
    func user(emailKey: String) throws -> UserRecord?
    /// Overwrites the account with `user.id`; throws `.conflict` if a new key is taken.
    func updateUser(_ user: UserRecord) throws
    /// Removes an account with its sessions and codes; returns whether it existed.
    @discardableResult func deleteUser(id: UUID) throws -> Bool
    /// How many accounts exist.
    func userCount() throws -> Int
    /// The account whose nickname has this confusable skeleton of this kind.
    func user(usernameSkeleton: String, kind: SkeletonKind) throws -> UserRecord?
}
