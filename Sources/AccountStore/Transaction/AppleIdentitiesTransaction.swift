import Foundation

/// Sign in with Apple: linked Apple IDs, continuations of new Apple users, and identity tokens accepted already.
///
/// Part of ``StoreTransaction``; every method throws ``StoreError``.
public protocol AppleIdentitiesTransaction {
    /// Links an Apple ID and sets ``UserRecord/appleLinked``; returns `false` (and changes
    /// nothing) when the Apple ID is linked already, or the account has one.
    func insertAppleIdentity(_ identity: AppleIdentityRecord) throws -> Bool
    /// The account linked to Apple's user `subject`; locked for the rest of a write transaction
    /// where the backend has row locks.
    func appleIdentity(subject: String) throws -> AppleIdentityRecord?
    func appleIdentity(userID: UUID) throws -> AppleIdentityRecord?
    /// Replaces the sealed Apple refresh token of a linked Apple ID.
    func setAppleRefreshToken(subject: String, sealed: [UInt8]?) throws
    /// Unlinks the account's Apple ID and clears ``UserRecord/appleLinked``; returns what was
    /// removed, in one statement, so of two simultaneous unlinks one gets it.
    func deleteAppleIdentity(userID: UUID) throws -> AppleIdentityRecord?
    func insertAppleContinuation(_ continuation: AppleContinuationRecord) throws
    /// The continuation with this hash; locked for the rest of a write transaction where the
    /// backend has row locks, so two completions of one token run one after the other.
    func appleContinuation(hash: [UInt8]) throws -> AppleContinuationRecord?
    @discardableResult func deleteAppleContinuation(hash: [UInt8]) throws -> Bool
    /// Removes continuations that expired at or before `before`; returns how many.
    @discardableResult func deleteAppleContinuations(expiredBefore before: Date) throws -> Int
    /// Records an accepted Apple identity token; returns `false` (and changes nothing) when it was
    /// recorded already. One statement: of simultaneous uses of one token on any server exactly
    /// one records it (on PostgreSQL the others wait for its commit, then get `false`).
    func insertUsedAppleToken(_ token: UsedAppleTokenRecord) throws -> Bool
    /// Whether `token` was recorded as accepted (and has not expired from the record yet): the
    /// early refusal of a replay, before anything is asked of Apple.
    func appleTokenUsed(_ token: UsedAppleTokenRecord) throws -> Bool
    /// Removes up to `limit` used tokens that expired at or before `before`, oldest first;
    /// returns how many.
    @discardableResult func deleteUsedAppleTokens(expiredBefore before: Date, limit: Int) throws -> Int
}
